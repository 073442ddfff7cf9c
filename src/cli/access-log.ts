import type { RequestFacts } from '../mock/index.ts';

export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

export interface AccessLogLine extends RequestFacts {
  method: string;
  url: string;
  status: number;
  ms: number;
}

/**
 * One access-log line: method, target, status, time, then operationId, session and whether an
 * API key came (`key=present|absent`), never the key or any other header value.
 * `json` gives one JSON object per line for log shippers.
 */
export function formatAccessLog(line: AccessLogLine, format: LogFormat, now: Date = new Date()): string {
  if (format === 'json') {
    return `${JSON.stringify({ time: now.toISOString(), method: line.method, path: line.url, status: line.status, ms: Math.round(line.ms * 1000) / 1000, operationId: line.operationId, session: line.session, key: line.keyPresent ? 'present' : 'absent' })}\n`;
  }
  return `${line.method} ${line.url} ${line.status} ${line.ms.toFixed(1)}ms ${line.operationId ?? '-'} session=${line.session} key=${line.keyPresent ? 'present' : 'absent'}\n`;
}
