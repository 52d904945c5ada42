import type { MessageKey } from './en';

/** Norsk bokmål for the attachment list and the image carousel (issue 14); spread into `nbChat`. */
export const nbAttachments: Partial<Record<MessageKey, string>> = {
  'chat.attachment.image': 'Bilde',
  'chat.attachment.imageLoading': 'Laster bilde…',
  'chat.attachment.imageError': 'Bildet kunne ikke lastes',
  'chat.attachment.openImage': 'Åpne bilde {index} av {count}',
  'chat.attachment.more': '+{count} til',
  'chat.attachment.gallery': 'Galleri med {count} bilder',
  'chat.attachment.video': 'Video',
  'chat.attachment.audio': 'Lyd',
  'chat.attachment.file': 'Fil',
  'chat.attachment.giphy': 'GIF',
  'chat.attachment.download': 'Last ned {name}',
  'chat.attachment.downloadError': 'Filen kunne ikke lastes ned',
  'chat.attachment.voice': 'Talemelding',
  'chat.attachment.play': 'Spill av',
  'chat.attachment.pause': 'Pause',
  'chat.attachment.playbackRate': 'Avspillingshastighet {rate}',
  'chat.attachment.position': 'Avspillingsposisjon',
  'chat.attachment.positionText': '{elapsed} av {duration}',
  'chat.attachment.audioError': 'Feil ved avspilling av lyd',
  'chat.attachment.actionsUnavailable': 'Meldingshandlinger er ikke tilgjengelige ennå',
  'chat.carousel.title': 'Bilder',
  'chat.carousel.previous': 'Forrige bilde',
  'chat.carousel.next': 'Neste bilde',
  'chat.carousel.counter': '{index} / {count}',
};
