// The Companion connection: Companion's InstanceBase around ShowclockConnection.
// All the work is in the connection, actions, feedbacks and variables, which
// need only the small ModuleHost part of this class; here they are wired up.
import { InstanceBase, type SomeCompanionConfigField } from '@companion-module/base';
import { actionDefinitions } from './actions.js';
import { configFields, setupOf, type ModuleConfig, type ModuleSecrets } from './config.js';
import { ShowclockConnection } from './connection.js';
import { feedbackDefinitions } from './feedbacks.js';
import { presetDefinitions } from './presets.js';
import { VARIABLES } from './variables.js';

export class ShowclockInstance extends InstanceBase<ModuleConfig, ModuleSecrets> {
  readonly #connection = new ShowclockConnection(this);

  async init(config: ModuleConfig, _isFirstInit: boolean, secrets: ModuleSecrets): Promise<void> {
    this.setVariableDefinitions([...VARIABLES]);
    this.setActionDefinitions(actionDefinitions(this.#connection));
    this.setFeedbackDefinitions(feedbackDefinitions(this.#connection));
    this.setPresetDefinitions(presetDefinitions(this.label));
    this.#connection.configure(setupOf(config, secrets));
  }

  /** Also called when the connection's label changes: the presets' variable names carry it. */
  async configUpdated(config: ModuleConfig, secrets: ModuleSecrets): Promise<void> {
    this.setPresetDefinitions(presetDefinitions(this.label));
    this.#connection.configure(setupOf(config, secrets));
  }

  async destroy(): Promise<void> {
    this.#connection.destroy();
  }

  getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }
}
