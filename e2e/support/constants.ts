export const E2E_ADMIN = { email: "super@e2e.test", password: "e2e-super-pass" };

/**
 * The WhatsApp Business account the e2e server's Graph API (a local fake, started by the global
 * setup) knows: one number and the templates the official screens are tried with.
 */
export const E2E_GRAPH = {
  accessToken: "EAAGe2eTestAccessToken0000000000",
  appSecret: "e2e-app-secret-0123456789abcdef",
  wabaId: "102290129340398",
  phoneNumberId: "106540352242922",
  phoneDigits: "5511911190001",
  templates: [
    {
      name: "pedido_confirmado",
      parameter_format: "NAMED" as const,
      components: [
        { type: "HEADER", format: "IMAGE" },
        { type: "BODY", text: "Olá {{first_name}}, seu pedido {{order_id}} foi confirmado." },
        {
          type: "BUTTONS",
          buttons: [
            { type: "URL", text: "Acompanhar", url: "https://loja.test/p/{{1}}" },
            { type: "COPY_CODE", example: "FRETE10" },
          ],
        },
      ],
    },
  ],
};
