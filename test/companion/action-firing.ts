// The module's action definitions fired as Companion fires them, with what each
// press sent to the box (a ModuleAction) or the message it was refused with.
import type { CompanionActionContext, CompanionActionDefinition, CompanionOptionValues } from '@companion-module/base';
import { actionDefinitions, type ActionRunner } from '../../src/companion/actions.js';
import { NO_LISTS, type ChoiceLists } from '../../src/companion/options.js';
import type { ModuleAction } from '../../src/companion/requests.js';

export interface ActionFiring {
  /** What the last press sent, in order (cleared at each press). */
  readonly sent: ModuleAction[];
  readonly defs: ReturnType<typeof actionDefinitions>;
  /** Fires action `id` with `options`: what it sent, the refusal's message, or 'nothing'. */
  readonly fire: (id: string, options: CompanionOptionValues) => Promise<ModuleAction | string>;
}

/**
 * `variables` stands in for Companion's variable parser: each `$(…)` it names is
 * replaced by its value. `lists`: what the timer and tag dropdowns offer.
 */
export function actionFiring(variables: Readonly<Record<string, string>> = {}, lists: ChoiceLists = NO_LISTS): ActionFiring {
  const sent: ModuleAction[] = [];
  const rejected: string[] = [];
  const runner: ActionRunner = {
    run: async (action) => {
      sent.push(action);
    },
    reject: (message) => {
      rejected.push(message);
    },
  };
  const defs = actionDefinitions(runner, lists);
  const context: CompanionActionContext = {
    parseVariablesInString: async (text) => Object.entries(variables).reduce((out, [name, value]) => out.replaceAll(name, value), text),
    setCustomVariableValue: () => {},
  };
  const fire = async (id: string, options: CompanionOptionValues): Promise<ModuleAction | string> => {
    sent.length = 0;
    rejected.length = 0;
    await (defs[id] as CompanionActionDefinition).callback({ id: 'a', controlId: 'c', actionId: id, options, surfaceId: undefined }, context);
    return sent[0] ?? rejected[0] ?? 'nothing';
  };
  return { sent, defs, fire };
}
