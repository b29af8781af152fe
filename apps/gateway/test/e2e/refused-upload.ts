/**
 * A refused upload is answered before its body is read, and the connection closed (the gateway
 * does not read on what may be a gigabyte); a body still being written then fails on the client's
 * side (EPIPE, ECONNRESET) instead of showing the answer, more often on a loaded machine. A refused
 * upload stores nothing, so the request goes again, up to `attempts` in all, until its answer is seen.
 */
export async function untilAnswered(send: () => Promise<Response>, attempts = 5): Promise<Response> {
  for (let i = 1; ; i++) {
    try {
      return await send();
    } catch (err) {
      const e = err as Error;
      if (i >= attempts || !/EPIPE|ECONNRESET/.test(String((e.cause as Error | undefined)?.message ?? e.message))) throw err;
    }
  }
}

/** A form as multipart/form-data in one piece (fewer writes than a streamed FormData), with its content type. */
export async function encodedForm(form: FormData): Promise<{ contentType: string; body: Uint8Array }> {
  const encoded = new Response(form);
  return { contentType: encoded.headers.get('content-type')!, body: new Uint8Array(await encoded.arrayBuffer()) };
}
