/** The document file store a configuration names, and where its local files live and are served from. */
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/settings.js';
import type { FileStore } from '../files/file-store.js';
import { LocalFileStore } from '../files/local-file-store.js';
import { sqlitePath } from '../store/open-store.js';

/** The directory local document files live in for a configuration. */
export function filesDirOf(config: Config): string {
  if (config.filesDir !== undefined) return resolve(config.filesDir);
  if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) return resolve('data/files');
  return join(dirname(resolve(sqlitePath(config.databaseUrl))), 'files');
}

/** The external origin used in signed URLs. */
export function publicUrlOf(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/** The document file store a configuration names. */
export async function fileStoreOf(config: Config, secret: Buffer): Promise<{ files: FileStore; local?: LocalFileStore }> {
  if (config.fileStore === 's3') {
    if (config.s3Bucket === undefined) throw new Error('FILE_STORE=s3 needs S3_BUCKET');
    const credentials =
      config.s3AccessKeyId !== undefined && config.s3SecretAccessKey !== undefined
        ? { accessKeyId: config.s3AccessKeyId, secretAccessKey: config.s3SecretAccessKey }
        : undefined;
    // Loaded only when used: the AWS SDK is a large part of start-up otherwise.
    const { S3FileStore } = await import('../files/s3-file-store.js');
    return {
      files: new S3FileStore({
        bucket: config.s3Bucket,
        region: config.s3Region,
        endpoint: config.s3Endpoint,
        forcePathStyle: config.s3ForcePathStyle,
        credentials,
        ttlSeconds: config.signedUrlTtl,
      }),
    };
  }
  const local = new LocalFileStore({
    dir: filesDirOf(config),
    secret,
    publicBaseUrl: publicUrlOf(config),
    basePath: config.basePath,
    ttlSeconds: config.signedUrlTtl,
  });
  return { files: local, local };
}
