// Types for the `tsl-umd-v5` package (a devDependency: the TSL 5.0 sender the tally
// tests use, written by others), as far as the tests call it.
declare module 'tsl-umd-v5' {
  import { EventEmitter } from 'node:events';

  interface Tsl5Tally {
    screen: number;
    index: number;
    display: { rh_tally: number; text_tally: number; lh_tally: number; brightness: number; text: string };
  }

  class TSL5 extends EventEmitter {
    constructPacket(tally: Tsl5Tally, sequence?: boolean): Buffer;
    sendTallyUDP(ip: string, port: number, tally: Tsl5Tally, sequence?: boolean): void;
    sendTallyTCP(ip: string, port: number, tally: Tsl5Tally, sequence?: boolean): void;
  }

  export = TSL5;
}
