/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Present when the page is rendered on demand by the server (api/routes/pages.ts). */
    services?: import("./lib/page-services.ts").PageServices;
  }
}
