/** An upload as the register's upload calls describe it: PUT the file to `uploadUrl` with `contentType`. */
export interface UploadTicket {
  uploadUrl: string;
  method: 'PUT';
  key: string;
  contentType: string;
  documentId?: string;
  imageId?: string;
}

/**
 * PUTs a file to its signed URL, reporting progress from 0 to 100 (02 §4). XMLHttpRequest rather than
 * fetch, because only it reports upload progress. The Content-Type must be the one the URL was signed for.
 */
export function putWithProgress(
  ticket: UploadTicket,
  file: Blob,
  onProgress: (percent: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(ticket.method, ticket.uploadUrl);
    xhr.setRequestHeader('Content-Type', ticket.contentType);
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

/** The content type to sign the upload for: the browser's guess, or a generic one. */
export const contentTypeOf = (file: File) => file.type || 'application/octet-stream';
