import ports from '@feedback/infra/ports.json' with { type: 'json' };

/**
 * The local stack's ports, defined once in infra/ports.json (infra/lib.sh reads the same file):
 * the defaults of the apps' environment, so an app started by hand finds its peers.
 */
export const LOCAL_PORTS: Readonly<Record<keyof typeof ports, number>> = ports;

/** `127.0.0.1:<port>` of a local-stack port by name. */
export const localAddr = (name: keyof typeof ports): string => `127.0.0.1:${LOCAL_PORTS[name]}`;
