/** A presigned upload as the API describes it (POST .../upload, POST /readings/photo). */
export interface PresignedUpload {
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  key: string;
}

/**
 * PUTs a file to a presigned URL, reporting progress from 0 to 100 (02 §4). XMLHttpRequest rather than
 * fetch, because only it reports upload progress.
 */
export function putWithProgress(
  upload: PresignedUpload,
  file: Blob,
  onProgress: (percent: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(upload.method, upload.uploadUrl);
    for (const [name, value] of Object.entries(upload.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
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

/** Saves a file from a presigned GET: the URL names the file, the browser downloads it. */
export function downloadFrom(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}
