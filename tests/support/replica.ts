import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';

const run = promisify(execFile);

/** The settings a hot standby refuses to start with below the primary's values. */
const STANDBY_MINIMUMS = [
  'max_connections',
  'max_prepared_transactions',
  'max_locks_per_transaction',
  'max_wal_senders',
  'max_worker_processes',
];

export interface ReplicaCluster {
  /** The URL of `database` on the replica. */
  url(database: string): string;
  /** Stops the cluster and removes its folder, whatever state it is in. */
  remove(): Promise<void>;
}

/**
 * A streaming replica of the whole PostgreSQL cluster `primaryUrl` is on: a copy made with
 * pg_basebackup (-R: it follows the primary), started as a hot standby on `port`, in a folder of
 * its own under the system's temporary folder. PostgreSQL refuses to run as root: as root the
 * copy and the server run as the `postgres` user.
 */
export async function startReplicaCluster(
  primaryUrl: string,
  port: number,
): Promise<ReplicaCluster> {
  const primary = new URL(primaryUrl);
  const client = new pg.Client({ connectionString: primaryUrl });
  await client.connect();
  let settings: { name: string; setting: string }[];
  let major: number;
  try {
    major = Math.floor(
      Number((await client.query('show server_version_num')).rows[0].server_version_num) / 10_000,
    );
    settings = (
      await client.query('select name, setting from pg_settings where name = any($1)', [
        STANDBY_MINIMUMS,
      ])
    ).rows;
  } finally {
    await client.end();
  }
  const bin = `/usr/lib/postgresql/${major}/bin`;
  if (!existsSync(join(bin, 'pg_basebackup'))) {
    throw new Error(
      `No pg_basebackup in ${bin}: the replica test needs PostgreSQL ${major}'s tools`,
    );
  }
  const asRoot = process.getuid?.() === 0;
  // As the cluster's user when we are root; as ourselves otherwise.
  const asOwner = (command: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args])
      : run(join(bin, command), args);

  const folder = await mkdtemp(join(tmpdir(), 'vitrine-replica-'));
  const dataDir = join(folder, 'data');
  const remove = async () => {
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      await asOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {});
    }
    await rm(folder, { recursive: true, force: true });
  };
  try {
    if (asRoot) await run('chown', ['postgres:postgres', folder]);
    try {
      await asOwner('pg_basebackup', [
        ...['-h', primary.hostname, '-p', primary.port || '5432'],
        ...['-U', decodeURIComponent(primary.username) || 'postgres'],
        ...['-D', dataDir, '-R', '-X', 'stream', '--checkpoint=fast'],
      ]);
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? error);
      if (/no pg_hba\.conf entry for replication/.test(stderr)) {
        throw new Error(
          `PostgreSQL at ${primary.host} refuses replication connections, so no replica can be ` +
            'made: its pg_hba.conf needs a line such as ' +
            `"host replication postgres ${primary.hostname}/32 trust" (.ci/run adds it).\n${stderr}`,
        );
      }
      throw error;
    }
    // Debian keeps a cluster's configuration outside its data folder: the copy gets its own.
    await writeFile(
      join(dataDir, 'postgresql.conf'),
      [
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${folder}'`,
        'hot_standby = on',
        'shared_buffers = 16MB',
        'fsync = off',
        ...settings.map(({ name, setting }) => `${name} = ${setting}`),
      ].join('\n'),
    );
    await writeFile(
      join(dataDir, 'pg_hba.conf'),
      'local all all trust\nhost all all 127.0.0.1/32 trust\n',
    );
    await writeFile(join(dataDir, 'pg_ident.conf'), '');
    if (asRoot) await run('chown', ['-R', 'postgres:postgres', folder]);
    const log = join(folder, 'server.log');
    await asOwner('pg_ctl', ['-D', dataDir, '-l', log, '-w', 'start']).catch(async (error) => {
      const said = await readFile(log, 'utf8').catch(() => '');
      throw new Error(`The replica did not start: ${String(error)}\n${said}`);
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    url(database) {
      const url = new URL(primaryUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      url.pathname = `/${database}`;
      return url.toString();
    },
    remove,
  };
}
