/** The part of swagger-ui-dist's ES bundle the reference page uses (the package ships no types). */
declare module "swagger-ui-dist/swagger-ui-es-bundle.js" {
  interface SwaggerUi {
    preauthorizeApiKey(scheme: string, key: string): void
  }

  interface SwaggerUiOptions {
    domNode: HTMLElement
    url: string
    tryItOutEnabled?: boolean
    deepLinking?: boolean
    docExpansion?: "list" | "full" | "none"
    defaultModelsExpandDepth?: number
    /** called with each "Try it out" request before it is sent; returns it */
    requestInterceptor?: (req: { method?: string; headers: Record<string, string>; credentials?: string }) => unknown
  }
  const SwaggerUIBundle: (options: SwaggerUiOptions) => SwaggerUi
  export default SwaggerUIBundle
}
