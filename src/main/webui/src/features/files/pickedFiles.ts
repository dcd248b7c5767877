import type { PickedFile } from './useUploads';

/** Files from a file input: a folder picked with `webkitdirectory` keeps each file's path below it. */
export function fromInput(files: FileList | null): PickedFile[] {
  if (files === null) return [];
  return Array.from(files, (file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => {
    const out: FileSystemEntry[] = [];
    // readEntries answers in batches (about 100 at a time in Chromium) until it answers an empty one.
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(out);
        else {
          out.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, relativePath: prefix + entry.name });
  } else if (entry.isDirectory) {
    const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
    for (const child of children) await walk(child, `${prefix}${entry.name}/`, out);
  }
}

/**
 * Files dropped on the page: folders are walked through the DataTransfer's entries where the browser gives them,
 * each file keeping its path below the dropped folder; otherwise the dropped files alone.
 */
export async function fromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(data.items ?? [])
    .filter((i) => i.kind === 'file')
    .map((i) => (typeof i.webkitGetAsEntry === 'function' ? i.webkitGetAsEntry() : null));
  if (entries.length > 0 && entries.every((e) => e !== null)) {
    const out: PickedFile[] = [];
    for (const e of entries) if (e) await walk(e, '', out);
    return out;
  }
  return Array.from(data.files, (file) => ({ file, relativePath: file.name }));
}
