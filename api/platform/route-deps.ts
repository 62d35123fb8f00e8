import type { AppServices } from "../app-services.ts";
import type { Config } from "../config.ts";
import type { Logger } from "./log.ts";

export type AppConfig = Pick<Config, "siteUrl" | "docsUrl" | "bodyLimitBytes" | "trustProxy" | "stripe">;

/** What every route file receives. */
export interface RouteDeps {
  config: AppConfig;
  services: AppServices;
  log: Logger;
}
