/**
 * Where a presigned upload goes, as the API's upload calls describe it. The Content-Type must be the one
 * the URL was signed for: either named on its own or among the headers.
 */
export interface UploadTarget {
  uploadUrl: string;
  method: 'PUT';
  headers?: Record<string, string>;
  contentType?: string;
}

/**
 * PUTs a file to its signed URL, reporting progress from 0 to 100 (02 §4). XMLHttpRequest rather than
 * fetch, because only it reports upload progress; 100 is reported only once the store has answered.
 */
export function putWithProgress(
  target: UploadTarget,
  file: Blob,
  onProgress: (percent: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(target.method, target.uploadUrl);
    for (const [name, value] of Object.entries(target.headers ?? {})) xhr.setRequestHeader(name, value);
    if (target.contentType) xhr.setRequestHeader('Content-Type', target.contentType);
    onProgress(0);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.min(99, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
      } else reject(new Error(`The upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new Error('The upload failed'));
    xhr.send(file);
  });
}

/** Saves a file from a signed GET: the URL names the file, the browser downloads it. */
export function downloadFrom(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

/** The content type to sign an upload for: the browser's guess, or a generic one. */
export const contentTypeOf = (file: File) => file.type || 'application/octet-stream';
