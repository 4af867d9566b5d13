// cec-ctl's output as the adapter reads it: the lines below are cec-ctl's own (printf
// formats of utils/cec-ctl/cec-ctl.cpp, message and argument names of utils/libcecutil):
// acknowledged or not, a reply or none, Feature Abort, each power word.
import { describe, expect, it } from 'vitest';
import { parseRegister, parseTransmit, physicalAddressOf } from '../../src/cec/cec-ctl.js';

const POWER_REPLY = (word: string, code: string) =>
  '1.0.0.0\n\nTransmit from Playback Device 1 to TV (4 to 0):\nGIVE_DEVICE_POWER_STATUS (0x8f)\n' +
  `    Received from TV (0):\n    REPORT_POWER_STATUS (0x90):\n\tpwr-state: ${word} (${code})\n` +
  '\tSequence: 9 Tx Timestamp: 1217.120s Rx Timestamp: 1217.163s\n\tApproximate response time: 42 ms\n';

describe('cec-ctl output', () => {
  it('reads the power the TV reported', () => {
    expect(parseTransmit(POWER_REPLY('on', '0x00'))).toEqual({ kind: 'acked', power: 'on' });
    expect(parseTransmit(POWER_REPLY('standby', '0x01'))).toEqual({ kind: 'acked', power: 'standby' });
    expect(parseTransmit(POWER_REPLY('to-on', '0x02'))).toEqual({ kind: 'acked', power: 'to-on' });
    expect(parseTransmit(POWER_REPLY('to-standby', '0x03'))).toEqual({ kind: 'acked', power: 'to-standby' });
    // A value outside the enum is printed as a number: the TV answered, with nothing we know.
    expect(parseTransmit(POWER_REPLY('4', '0x04'))).toEqual({ kind: 'acked', power: null });
  });

  it('tells an acknowledged message from one nobody took, or whose reply never came', () => {
    expect(parseTransmit('\nTransmit from Playback Device 1 to TV (4 to 0):\nSTANDBY (0x36)\n\tSequence: 6 Tx Timestamp: 1214.310s\n')).toEqual({ kind: 'acked', power: null });
    expect(
      parseTransmit('\nTransmit from Playback Device 1 to TV (4 to 0):\nIMAGE_VIEW_ON (0x04)\n\tSequence: 7 Tx Timestamp: 1215.442s\n\tTx, Not Acknowledged (4), Max Retries\n'),
    ).toEqual({ kind: 'nacked', status: 'Tx, Not Acknowledged (4), Max Retries' });
    expect(
      parseTransmit('\nTransmit from Playback Device 1 to TV (4 to 0):\nGIVE_DEVICE_POWER_STATUS (0x8f)\n\tSequence: 8 Tx Timestamp: 1216.000s\n\tTx, OK, Rx, Timeout\n'),
    ).toEqual({ kind: 'no-reply', status: 'Tx, OK, Rx, Timeout' });
    expect(
      parseTransmit(
        '\nTransmit from Playback Device 1 to TV (4 to 0):\nGIVE_DEVICE_POWER_STATUS (0x8f)\n    Received from TV (0):\n    FEATURE_ABORT (0x00):\n' +
          '\tabort-msg: 143 (0x8f, GIVE_DEVICE_POWER_STATUS)\n\treason: unrecognized-op (0x00)\n\tSequence: 8 Tx Timestamp: 1216.000s Rx Timestamp: 1216.050s\n' +
          '\tApproximate response time: 50 ms\n\tTx, OK, Rx, OK, Feature Abort\n',
      ),
    ).toEqual({ kind: 'refused', status: 'Tx, OK, Rx, OK, Feature Abort' });
  });

  it('sees that nothing was sent: an unconfigured adapter, or a transmit call that failed', () => {
    expect(parseTransmit('1.0.0.0\n')).toEqual({ kind: 'not-sent' });
    expect(parseTransmit('\nTransmit from Playback Device 1 to TV (4 to 0):\nSTANDBY (0x36)\n')).toEqual({ kind: 'not-sent' });
  });

  it('reads the physical and logical address of a registration', () => {
    expect(parseRegister('1.0.0.0\n4\n')).toEqual({ physicalAddress: '1.0.0.0', logicalAddress: 4 });
    expect(parseRegister('f.f.f.f\n')).toEqual({ physicalAddress: 'f.f.f.f', logicalAddress: null });
    expect(physicalAddressOf('3.1.0.0\n\nTransmit from ...')).toBe('3.1.0.0');
  });
});
