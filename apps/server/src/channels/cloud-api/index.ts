import { registerDriverFactory, registerRemotePrecheck } from "../manager.js";
import { CloudApiDriver, cloudPrecheck } from "./driver.js";

/** Connections with provider 'official' run on the Cloud API driver. Imported once by the official domains. */
registerDriverFactory("official", (ctx, i) => new CloudApiDriver(ctx, i.companyId, i.whatsappId, i.events, i.resume, i.fence));
registerRemotePrecheck("official", cloudPrecheck);

export { CloudApiDriver } from "./driver.js";
export { GraphClient, GraphError, GraphUnavailable } from "./graph-client.js";
