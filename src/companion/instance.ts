// The Companion connection: Companion's InstanceBase around ShowclockConnection.
// All the work is in the connection, actions, feedbacks and variables, which
// need only the small ModuleHost part of this class; here they are wired up.
// The timer and tag dropdowns offer the room's lists: the connection says when
// the running order or the tags change, and the definitions are sent again.
import { InstanceBase, type SomeCompanionConfigField } from '@companion-module/base';
import { actionDefinitions } from './actions.js';
import { configFields, setupOf, type ModuleConfig, type ModuleSecrets } from './config.js';
import { ShowclockConnection, type RoomLists } from './connection.js';
import { feedbackDefinitions } from './feedbacks.js';
import { presetDefinitions } from './presets.js';
import { VARIABLES } from './variables.js';

export class ShowclockInstance extends InstanceBase<ModuleConfig, ModuleSecrets> {
  readonly #connection = new ShowclockConnection(this);
  /** What the dropdowns offer: empty until the first snapshot, then the room's running order and tags. */
  #lists: RoomLists = { timers: [], tags: [] };

  async init(config: ModuleConfig, _isFirstInit: boolean, secrets: ModuleSecrets): Promise<void> {
    this.setVariableDefinitions([...VARIABLES]);
    this.setActionDefinitions(actionDefinitions(this.#connection, this.#lists));
    this.setFeedbackDefinitions(feedbackDefinitions(this.#connection, this.#lists));
    this.setPresetDefinitions(presetDefinitions(this.label));
    this.#connection.configure(setupOf(config, secrets));
  }

  /** Also called when the connection's label changes: the presets' variable names carry it. */
  async configUpdated(config: ModuleConfig, secrets: ModuleSecrets): Promise<void> {
    this.setPresetDefinitions(presetDefinitions(this.label));
    this.#connection.configure(setupOf(config, secrets));
  }

  /**
   * Called by the connection (ModuleHost) when the running order (ids, labels,
   * order) or the tags change: the actions' and the `timer_active` feedback's
   * dropdowns are offered again with the new choices. A saved choice is the
   * timer's id, so a rename or a move keeps it; a deleted one is refused at the press.
   */
  roomListsChanged(lists: RoomLists): void {
    this.#lists = lists;
    this.setActionDefinitions(actionDefinitions(this.#connection, lists));
    this.setFeedbackDefinitions(feedbackDefinitions(this.#connection, lists));
  }

  async destroy(): Promise<void> {
    this.#connection.destroy();
  }

  getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }
}
