/**
 * A TCP proxy in the test's own process, to make a server unreachable the way networks do:
 * `blackhole` drops every byte both ways without closing anything (a NAT or load balancer that
 * forgot the connection, packets dropped), on open connections and on new ones, which are
 * accepted and never forwarded; `normal` forwards again (connections accepted while blackholed
 * stay dead, as a peer that never answered would); `sever` drops the bytes of the connections open
 * now, for good, and forwards new ones (a failover behind a shared address).
 */
import net from 'node:net';

/** Ports the proxy may listen on, tried in order. */
const PORTS = { first: 19700, last: 19799 };

export interface TcpProxy {
  /** The port clients connect to, on 127.0.0.1. */
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  blackhole(): void;
  normal(): void;
  sever(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `targetPort` on 127.0.0.1, on the first free port of PORTS. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let dropping = false;
  const sockets = new Set<net.Socket>();
  /** Each forwarded connection's own switch, turned off for good by sever. */
  const links = new Set<{ dead: boolean }>();
  const track = (s: net.Socket): void => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  };
  // Half-open allowed, so a goodbye (FIN) is dropped too while dropping, rather than answered by the proxy.
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    track(client);
    if (dropping) return;
    const upstream = net.connect({ port: targetPort, host: '127.0.0.1', allowHalfOpen: true });
    track(upstream);
    const link = { dead: false };
    links.add(link);
    client.on('data', (d) => void (dropping || link.dead || upstream.write(d)));
    upstream.on('data', (d) => void (dropping || link.dead || client.write(d)));
    client.on('end', () => void (dropping || link.dead || upstream.end()));
    upstream.on('end', () => void (dropping || link.dead || client.end()));
    const end = (): void => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  let port = 0;
  for (let p = PORTS.first; p <= PORTS.last && port === 0; p++) {
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(p, '127.0.0.1', () => resolve(true));
    });
    if (listening) port = p;
  }
  if (port === 0) throw new Error(`no free port for the test proxy in ${PORTS.first}-${PORTS.last}`);
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    blackhole: () => void (dropping = true),
    normal: () => void (dropping = false),
    sever: () => {
      for (const l of links) l.dead = true;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
