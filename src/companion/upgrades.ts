// Upgrade scripts for saved buttons and config, in order. None yet: once one is
// published it stays, since Companion counts how many a connection has run.
import type { CompanionStaticUpgradeScript } from '@companion-module/base';
import type { ModuleConfig, ModuleSecrets } from './config.js';

export const UPGRADE_SCRIPTS: CompanionStaticUpgradeScript<ModuleConfig, ModuleSecrets>[] = [];
