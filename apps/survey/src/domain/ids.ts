const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (id: string): boolean => UUID.test(id);

/** Link tokens are base64url of at least 16 random bytes; anything else cannot be one. */
export const looksLikeToken = (token: string): boolean => /^[A-Za-z0-9_-]{22,64}$/.test(token);
