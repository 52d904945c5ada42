import type { Page } from 'playwright-core';
import { composer } from './caseroom.js';

/** The composer's attachment previews. */
export const previews = (page: Page) => page.getByRole('list', { name: 'Attachments' });

/** Pastes a file into the message input as the clipboard of a copied image or file would. */
export async function pasteFile(page: Page, bytes: Buffer, name: string, type: string): Promise<void> {
  await composer(page).evaluate(
    (input, [data, fileName, fileType]) => {
      const transfer = new DataTransfer();
      transfer.items.add(
        new File([new Uint8Array(data as number[])], fileName as string, { type: fileType as string }),
      );
      input.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    },
    [[...bytes], name, type] as const,
  );
}

/** Drags a file over the channel and drops it: dragenter shows the drop zone, drop attaches and hides it. */
export async function dropFile(page: Page, bytes: Buffer, name: string, type: string): Promise<void> {
  const data = await page.evaluateHandle(
    ([content, fileName, fileType]) => {
      const transfer = new DataTransfer();
      transfer.items.add(
        new File([new Uint8Array(content as number[])], fileName as string, { type: fileType as string }),
      );
      return transfer;
    },
    [[...bytes], name, type] as const,
  );
  const area = page.locator('.channel-main');
  await area.dispatchEvent('dragenter', { dataTransfer: data });
  await page.getByTestId('drop-zone').waitFor();
  await area.dispatchEvent('dragover', { dataTransfer: data });
  await area.dispatchEvent('drop', { dataTransfer: data });
  await page.getByTestId('drop-zone').waitFor({ state: 'detached' });
}
