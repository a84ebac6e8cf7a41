export * from "./shapes";
export { type FileProvider } from "./local-provider";
export { type S3Storage } from "./s3-provider";
export { createFileProvider, type FileStorage } from "./storage";
export {
  createFileService,
  detectFileType,
  type FileService,
  type FileLimits,
  type PresignedUpload,
  type StoredFile,
} from "./service";
