import i18n from "../lib/i18n";

/**
 * Form messages of the spec are literal texts ('Too Short!', 'Obrigatorio', ...) shared by server and web
 * schemas: the spec's text is the catalogue key, and each language shows its own words (Portuguese with
 * its accents: 'Too Short!' reads 'Muito curto!', 'Obrigatorio' reads 'Obrigatório'). Messages already
 * written in Portuguese show as they are in pt. Keys of the app's i18n catalogue (`contacts.errors.x`) are
 * translated as usual.
 */
const TRANSLATIONS: Record<string, { pt?: string; en: string; es: string }> = {
  "Too Short!": { pt: "Muito curto!", en: "Too Short!", es: "¡Demasiado corto!" },
  "Too Long!": { pt: "Muito longo!", en: "Too Long!", es: "¡Demasiado largo!" },
  Required: { pt: "Obrigatório", en: "Required", es: "Obligatorio" },
  "Invalid email": { pt: "E-mail inválido", en: "Invalid email", es: "Correo electrónico inválido" },
  Obrigatorio: { pt: "Obrigatório", en: "Required", es: "Obligatorio" },
  "Obrigatório": { en: "Required", es: "Obligatorio" },
  "Mensagem muito curta": { en: "Message too short", es: "Mensaje demasiado corto" },
  "Digite um número de telefone válido": { en: "Enter a valid phone number", es: "Ingrese un número de teléfono válido" },
  "Selecione uma conexão para abrir o ticket": { en: "Select a connection to open the ticket", es: "Seleccione una conexión para abrir el ticket" },
  "Digite uma mensagem para abrir o ticket": { en: "Type a message to open the ticket", es: "Escriba un mensaje para abrir el ticket" },
  "Por favor, preencha o título da conversa.": { en: "Please fill in the conversation's title.", es: "Por favor, complete el título de la conversación." },
  "Por favor, selecione pelo menos um usuário.": { en: "Please select at least one user.", es: "Por favor, seleccione al menos un usuario." },
  "A palavra deve ter pelo menos 2 caracteres.": { en: "The word must have at least 2 characters.", es: "La palabra debe tener al menos 2 caracteres." },
  "Prioridade inválida": { en: "Invalid priority", es: "Prioridad inválida" },
  "A imagem deve ser PNG, JPG ou JPEG.": { en: "The image must be PNG, JPG or JPEG.", es: "La imagen debe ser PNG, JPG o JPEG." },
  "Código do vídeo inválido": { en: "Invalid video code", es: "Código de video inválido" },
  // the opt-out list's add form (packages/shared OPT_OUT_MESSAGES)
  "Informe o endereço ou número.": { en: "Enter the address or number.", es: "Ingrese la dirección o el número." },
  "E-mail inválido.": { en: "Invalid e-mail.", es: "Correo electrónico inválido." },
  "Número de telefone inválido.": { en: "Invalid phone number.", es: "Número de teléfono inválido." },
  "Invalid date": { pt: "Data inválida", en: "Invalid date", es: "Fecha inválida" },
  // subscription checkout, step 1 (spec 2-administration §5)
  "nome completo obrigatorio": { en: "Full name is required", es: "Nombre completo obligatorio" },
  "Endereco obrigatorio": { en: "Address is required", es: "Dirección obligatoria" },
  "Cidade obrigatoria": { en: "City is required", es: "Ciudad obligatoria" },
  "CEP obrigatorio": { en: "ZIP code is required", es: "Código postal obligatorio" },
  "Pais obrigatorio": { en: "Country is required", es: "País obligatorio" },
  "HH:MM": { en: "HH:MM", es: "HH:MM" },
  "Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.": {
    en: "Your password must have at least 8 characters, with an uppercase letter, a lowercase letter and a number.",
    es: "Su contraseña debe tener al menos 8 caracteres, con una letra mayúscula, una minúscula y un número.",
  },
  "As senhas não correspondem": { en: "Passwords do not match", es: "Las contraseñas no coinciden" },
};

export function formMessage(message: string | undefined): string | undefined {
  if (!message) return undefined;
  if (/^[\w-]+(\.[\w-]+)+$/.test(message) && i18n.exists(message)) return i18n.t(message);
  const lang = i18n.language;
  const entry = TRANSLATIONS[message];
  if (!entry) return message;
  if (lang === "en" || lang === "es") return entry[lang];
  return entry.pt ?? message;
}
