// Found on the network (issue 32, README "Found on the network (mDNS)"): the entry of
// dist/showclock-mdns.cjs, the side file the service bundle loads through
// mdns-adapter.bundle.ts. main.ts calls:
//   startMdns({ room, logger })                 advertise `_showclock._tcp` and `_http._tcp`
//                                               once the HTTP server listens; close() at the stop
//                                               sends the goodbye packets.
//   browseBoxes({ onFound, onUpdated?, onGone, logger, ownNames? })
//                                               report other boxes as FoundBox; pass
//                                               ownNames: () => advertisement.ownNames()
//                                               so this box never reports itself.
export { startMdns, type MdnsAdvertisement, type MdnsDeps } from './advertiser.js';
export { browseBoxes, type BoxBrowser, type BrowseDeps } from './box-browser.js';
export type { AdvertisedRoom, FoundBox } from './mdns-records.js';
