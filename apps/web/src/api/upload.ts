import { ApiError, CLIENT_ERROR_CODES } from './ApiError.ts';

export type UploadProgress = (sent: number, total: number) => void;

/**
 * POSTs JSON with upload progress. fetch cannot report how much of a request body has been sent, and a large image
 * takes long enough on a slow link that the user must see it moving; XMLHttpRequest's upload events can.
 * Failures become ApiError as in the fetch client (http.ts): the server's `{ error, message }` when it sent one.
 */
export function postJsonWithProgress<T>(
  path: string,
  body: unknown,
  onProgress: UploadProgress,
  onUnauthorized?: (path: string) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, CLIENT_ERROR_CODES.network, 'Network error: the upload did not finish'));
    xhr.onabort = xhr.onerror;
    xhr.onload = () => {
      let decoded: unknown;
      try {
        decoded = xhr.responseText === '' ? undefined : (JSON.parse(xhr.responseText) as unknown);
      } catch {
        decoded = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        if (typeof decoded === 'object' && decoded !== null) resolve(decoded as T);
        else reject(new ApiError(xhr.status, CLIENT_ERROR_CODES.invalidResponse, `Expected JSON from POST ${path}`));
        return;
      }
      if (xhr.status === 401) onUnauthorized?.(path);
      const record = typeof decoded === 'object' && decoded !== null ? (decoded as Record<string, unknown>) : {};
      reject(
        new ApiError(
          xhr.status,
          typeof record.error === 'string' ? record.error : CLIENT_ERROR_CODES.http,
          typeof record.message === 'string' && record.message !== '' ? record.message : `HTTP ${xhr.status}`,
          decoded,
        ),
      );
    };
    xhr.send(JSON.stringify(body));
  });
}
