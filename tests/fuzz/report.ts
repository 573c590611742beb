import type { FuzzReport, Observation } from './fuzzer';
import { serialize } from './generate';

const MAX_GROUPS = 40;

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
const EXAMPLE_BYTES = 700;

function counts(map: Map<string, number>): string {
  return [...map]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key}: ${count}`)
    .join(', ');
}

/** The request as a JSON string literal: every byte visible, pasteable into a replay. */
export function describeRequest(observation: Observation): string {
  const bytes = serialize(observation.request);
  const shown = bytes.subarray(0, EXAMPLE_BYTES).toString('latin1');
  const more = bytes.length > EXAMPLE_BYTES ? ` … (${bytes.length} bytes in all)` : '';
  // Each character is one byte (latin1); bytes past ASCII are shown as \xNN, as printf reads them.
  const escaped = JSON.stringify(shown).replace(
    /[\u0080-\u00ff]/g,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return `${escaped}${more}`;
}

function describeOutcome(observation: Observation): string {
  const { response } = observation;
  const status = response.status !== undefined ? `${response.status}` : response.outcome;
  const code = response.errorCode ? ` ${response.errorCode}` : '';
  return `${status}${code} in ${Math.round(response.durationMs)} ms`;
}

export function formatReport(report: FuzzReport): string {
  const lines: string[] = [];
  const seconds = report.durationMs / 1000;
  lines.push(
    `Fuzz run: seed ${report.seed}, ${report.requests} requests in ${seconds.toFixed(1)} s ` +
      `(${(report.requests / seconds).toFixed(0)}/s, concurrency ${report.concurrency})` +
      (report.stoppedBy === 'time' ? ', stopped by its time limit' : '') +
      (report.shrinkRequests ? `, then ${report.shrinkRequests} to shrink failures` : ''),
  );
  lines.push(
    `CPU: fuzzer ${report.cpu.fuzzerSeconds.toFixed(1)} s` +
      (report.cpu.serverSeconds !== undefined
        ? `, server ${report.cpu.serverSeconds.toFixed(1)} s`
        : ''),
  );
  lines.push(
    `Routes from the manifest (${report.routes.length}): ` +
      report.routes
        .map((route) => `${route.pattern}${route.hasAction ? ' [action]' : ''}`)
        .join(' '),
  );
  lines.push(`Answers: ${counts(report.byStatus)}`);
  lines.push('By target (requests; answers; mean / max ms):');
  for (const [target, stats] of [...report.byTarget].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(
      `  ${target}: ${stats.count}; ${counts(stats.byStatus)}; ` +
        `${(stats.totalMs / stats.count).toFixed(0)} / ${stats.maxMs.toFixed(0)}`,
    );
  }
  lines.push('Slowest:');
  for (const observation of report.slowest.slice(0, 5)) {
    lines.push(
      `  #${observation.request.index} ${describeOutcome(observation)} ${describeRequest(observation).slice(0, 200)}`,
    );
  }
  if (report.memory) {
    const { warmupKb, endKb, peakKb, ratio, ok } = report.memory;
    lines.push(
      `Server RSS: ${mb(warmupKb)} after the warm-up; lowest over the last quarter of the run ` +
        `and the quiet after it ${mb(endKb)} (${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%); ` +
        `peak ${mb(peakKb)}` +
        (ok ? '' : ' — DID NOT COME BACK WITHIN 20%'),
    );
    lines.push(
      `  during the run: ${report.memory.timeline.map(([n, kb]) => `${n}: ${mb(kb)}`).join(', ')}`,
    );
  } else {
    lines.push('Server RSS: not measured (no process id, or no /proc)');
  }
  lines.push(`/healthz at the end: ${report.healthz?.status ?? report.healthz?.outcome}`);
  if (report.aborted) lines.push(`ABORTED: ${report.aborted}`);

  if (report.failures.length === 0) {
    lines.push('No failures.');
    return lines.join('\n');
  }
  lines.push(
    `FAILURES: ${report.failureCount} requests failed, in ${report.failures.length} groups ` +
      '(cause = what was still needed to fail after shrinking):',
  );
  for (const group of report.failures.slice(0, MAX_GROUPS)) {
    const cause =
      group.cause.length > 0
        ? group.cause.join(' ')
        : group.note
          ? 'none of its own'
          : '(no hostile part)';
    const notes = [group.shrunk || group.note ? undefined : 'not shrunk', group.note].filter(
      Boolean,
    );
    lines.push('');
    lines.push(
      `[${group.kind}] ${group.count}× — cause: ${cause}` +
        (notes.length > 0 ? ` (${notes.join('; ')})` : ''),
    );
    lines.push(
      `  answers: ${counts(group.statuses)}; targets: ${[...group.targets].sort().join(', ')}`,
    );
    for (const example of group.examples) {
      lines.push(
        `  #${example.request.index} → ${describeOutcome(example)}${example.detail ? ` (${example.detail})` : ''}`,
      );
      lines.push(`    ${describeRequest(example)}`);
    }
  }
  if (report.failures.length > MAX_GROUPS) {
    lines.push(`… and ${report.failures.length - MAX_GROUPS} more groups.`);
  }
  return lines.join('\n');
}

/** The server's error log lines (pino levels 50 and 60), shortened. */
export function serverErrors(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => /"level":(50|60)\b/.test(line))
    .map((line) => line.slice(0, 2000));
}
