// A fix for @homebridge/ciao 1.3.12 on Linux: it lists interfaces with `ip -o link
// show` and takes the name as printed, which for a veth, a VLAN or a container's eth0
// is `eth0@if12`, a name os.networkInterfaces() does not know; such an interface is
// then silently never advertised on (a box in Docker, or in a network namespace as
// test/mdns runs it). Applied once, before the first responder: the names lose their
// `@peer` suffix. ciao still finds and follows the interfaces itself (Wi-Fi joining
// after boot), which passing it a fixed interface list would lose.
import { NetworkManager } from '@homebridge/ciao/lib/NetworkManager.js';

type ListNames = () => Promise<string[]>;
interface LinuxListing {
  getLinuxNetworkInterfaces?: ListNames;
  showclockPatched?: boolean;
}

/** `eth0@if12` → `eth0`; names without a peer unchanged. */
export function linkName(printed: string): string {
  const at = printed.indexOf('@');
  return at <= 0 ? printed : printed.slice(0, at);
}

export function patchCiaoInterfaceNames(): void {
  const manager = NetworkManager as unknown as LinuxListing;
  const original = manager.getLinuxNetworkInterfaces;
  if (manager.showclockPatched === true || typeof original !== 'function') return;
  manager.showclockPatched = true;
  manager.getLinuxNetworkInterfaces = async () => [...new Set((await original.call(NetworkManager)).map(linkName))];
}
