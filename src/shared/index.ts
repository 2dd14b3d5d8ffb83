export * from './result';
export * from './validation';
export * from './profile';
export * from './ipc/names';
export * from './ipc/contract';
export * from './ipc/web-protocol';
export * from './ipc/schemas';
export * from './ipc/request-key';
