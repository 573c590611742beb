import { execFile } from 'node:child_process';

export interface MetricFamily {
  name: string;
  type: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

// Prometheus's own Python client parses the text strictly (a malformed line is an error), which
// no npm parser we found does: one dropped a histogram's labels and took any line as a sample.
const PARSE = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
families = [
    {"name": f.name, "type": f.type, "samples": [
        {"name": s.name, "labels": s.labels, "value": s.value if math.isfinite(s.value) else str(s.value)}
        for s in f.samples]}
    for f in text_string_to_metric_families(sys.stdin.read())]
print(json.dumps(families))
`;

/**
 * Parses an exposition in Prometheus's text format with the Prometheus client's parser (Debian's
 * python3-prometheus-client, which .ci/run installs); rejects when the text does not parse.
 */
export function parsePrometheusText(text: string): Promise<MetricFamily[]> {
  return new Promise((resolve, reject) => {
    const child = execFile('/usr/bin/python3', ['-c', PARSE], (error, stdout, stderr) => {
      if (error) reject(new Error(`Not Prometheus text: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout) as MetricFamily[]);
    });
    child.stdin?.end(text);
  });
}
