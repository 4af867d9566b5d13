// The module's entry, what Companion runs (built into main.js of the package by
// scripts/package-companion.mjs). Nothing of src/companion is part of the service.
import { runEntrypoint } from '@companion-module/base';
import { ShowclockInstance } from './instance.js';
import { UPGRADE_SCRIPTS } from './upgrades.js';

runEntrypoint(ShowclockInstance, UPGRADE_SCRIPTS);
