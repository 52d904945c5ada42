export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Where the SDK reports what it does; silent by default. */
export type Logger = (level: LogLevel, message: string, extra?: Record<string, unknown>) => void;

export const silentLogger: Logger = () => {};
