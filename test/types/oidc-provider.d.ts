// The few parts of oidc-provider (which ships no types) that the tests' OpenID provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string; scope?: string };
    session?: { accountId?: string };
  }

  export class Prompt {
    constructor(options: { name: string; requestable: boolean });
  }

  export interface Policy {
    add(prompt: Prompt, index?: number): void;
  }

  export const interactionPolicy: { base(): Policy; Prompt: typeof Prompt };

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    Grant: new (options: { accountId: string; clientId: string }) => Grant;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
