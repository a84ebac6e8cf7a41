export { FileView } from "./schema";
export { createLocalFileProvider, type FileProvider } from "./local-provider";
export { createFileService, detectFileType, type FileService, type FileLimits, type StoredFile } from "./service";
