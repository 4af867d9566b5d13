// The `gpio` section of the config file. Filled in by the GPIO work (issue 5);
// until then it accepts an object and checks nothing inside it.
import { z } from 'zod';

export const GpioConfigSchema = z.object({}).passthrough();
export type GpioConfig = z.infer<typeof GpioConfigSchema>;
