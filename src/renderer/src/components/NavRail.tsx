import type { ReactElement } from 'react';
import { pages, type PageEntry } from '@renderer/pages/registry';
import { hrefOf, selectPage, useNavigation } from '@renderer/stores/navigation';
import { selectAppVersion, useService } from '@renderer/stores/service';

const sections: PageEntry['section'][] = ['Markets', 'Copy', 'Account'];

/** The left rail: every page, grouped; pages of later releases are marked "soon". */
export function NavRail(): ReactElement {
  const current = useNavigation(selectPage);
  const version = useService(selectAppVersion);

  return (
    <nav className="rail" aria-label="Pages">
      <div className="rail-brand">
        <span className="rail-logo" aria-hidden="true">
          C
        </span>
        <span className="rail-name">Copydesk</span>
      </div>
      {sections.map((section) => (
        <div className="rail-section" key={section}>
          <h2 className="rail-section-title" id={`rail-${section}`}>
            {section}
          </h2>
          <ul aria-labelledby={`rail-${section}`}>
            {pages
              .filter((p) => p.section === section)
              .map((p) => {
                const Icon = p.icon;
                return (
                  <li key={p.id}>
                    <a
                      href={hrefOf(p.id)}
                      className="rail-link"
                      aria-current={p.id === current ? 'page' : undefined}
                      data-testid={p.testId}
                    >
                      <Icon />
                      <span className="rail-label">{p.label}</span>
                      {p.built ? null : (
                        <span className="rail-soon" aria-hidden="true">
                          soon
                        </span>
                      )}
                    </a>
                  </li>
                );
              })}
          </ul>
        </div>
      ))}
      <div className="rail-footer">{version ? `v${version}` : ''}</div>
    </nav>
  );
}
