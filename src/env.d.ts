/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Present when the page is rendered on demand by the server (api/site/page-routes.ts). */
    services?: import("./lib/page-services.ts").PageServices;
  }
}
