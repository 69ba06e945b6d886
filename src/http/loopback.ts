/** What "this machine only" means to every server of svc: the addresses and Host names of loopback. */

/** An address only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Whether a Host header names this machine's loopback interface, whatever its port. */
export function namesLoopback(host: string | null): boolean {
  const name = URL.parse(`http://${host}`)?.hostname;
  if (name === undefined) return false;
  // the URL parser has turned any IPv4 spelling into dotted decimal, so 127.0.0.1.example is no match
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}
