/**
 * Development tooling's environment (the local Elasticsearch launcher in dev/ and `npm start`'s sample
 * load), parsed once with the rules the service uses. Production reads none of it.
 */
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { booleanFlag, elasticsearchUrl, parseEnv } from './rules.js';

export const DevelopmentEnvSchema = z.object({
  /** Set: use that cluster and start nothing. */
  ELASTICSEARCH_URL: elasticsearchUrl.optional(),
  /** `local` skips the Docker probe (testcontainers) and always uses the launcher. */
  ES_PROVIDER: z.enum(['auto', 'local']).default('auto'),
  DOCKER_HOST: z.string().optional(),
  /** Force an Elasticsearch version instead of the newest the installed JDKs can run. */
  ES_VERSION: z.string().optional(),
  ES_HEAP: z
    .string()
    .regex(/^\d+[mMgG]$/, 'a JVM heap size such as 512m or 2g')
    .optional(),
  ES_RUN_USER: z.string().min(1).default('elasticsearch'),
  ES_JAVA_HOME: z.string().optional(),
  JAVA_HOME: z.string().optional(),
  MAVEN_REPO_LOCAL: z.string().optional(),
  ES_INSTALL_DIR: z.string().optional(),
  LOAD_SAMPLE_ON_EMPTY: booleanFlag.default(true),
  SAMPLE_MANIFEST: z.string().default('datasets/sample.json'),
});

export interface LauncherSettings {
  provider: 'auto' | 'local';
  dockerHost: string | undefined;
  version: string | undefined;
  /** undefined: the caller's default (512m for tests and `npm start`, 1g for `npm run es`). */
  heap: string | undefined;
  /** Elasticsearch refuses to run as root: the account it runs as when this process is root. */
  runAsUser: string;
  /** JDK homes to consider before those under /usr/lib/jvm. */
  javaHomes: string[];
  mavenRepository: string;
  /** Where the distribution is unpacked once (world-readable: the node may run as another user). */
  installDir: string;
}

export interface DevelopmentConfig {
  elasticsearchUrl: string | undefined;
  launcher: LauncherSettings;
  loadSampleOnEmpty: boolean;
  sampleManifest: string;
}

export function loadDevelopmentConfig(source: NodeJS.ProcessEnv = process.env): DevelopmentConfig {
  const env = parseEnv(DevelopmentEnvSchema, source);
  return {
    elasticsearchUrl: env.ELASTICSEARCH_URL,
    launcher: {
      provider: env.ES_PROVIDER,
      dockerHost: env.DOCKER_HOST,
      version: env.ES_VERSION,
      heap: env.ES_HEAP,
      runAsUser: env.ES_RUN_USER,
      javaHomes: [env.ES_JAVA_HOME, env.JAVA_HOME].filter((home): home is string => Boolean(home)),
      mavenRepository: env.MAVEN_REPO_LOCAL ?? join(homedir(), '.m2', 'repository'),
      installDir: env.ES_INSTALL_DIR ?? join(tmpdir(), 'geocoder-elasticsearch'),
    },
    loadSampleOnEmpty: env.LOAD_SAMPLE_ON_EMPTY,
    sampleManifest: env.SAMPLE_MANIFEST,
  };
}
