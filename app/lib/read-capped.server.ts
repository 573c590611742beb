/** An outside service answered with more than we are willing to read. */
export class ResponseTooLarge extends Error {
  constructor(limit: number) {
    super(`Answer over ${limit} bytes`);
    this.name = 'ResponseTooLarge';
  }
}

/**
 * An outside service's answer as text, refused past `limit` bytes: by its Content-Length before
 * reading, or as soon as the bytes read pass it. A broken or hostile service cannot fill memory.
 */
export async function readCappedText(response: Response, limit: number): Promise<string> {
  if (Number(response.headers.get('Content-Length')) > limit) {
    await response.body?.cancel();
    throw new ResponseTooLarge(limit);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ResponseTooLarge(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
}
