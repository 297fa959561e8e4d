import type { Page } from 'playwright-core';

let counter = 0;
/** A unique address per call, so specs never collide on the server's unique email index. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

export const PASSWORD = 'correct horse battery';

export async function signUp(page: Page, email: string, name = 'Mika'): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Name (optional)').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL('**/dashboard');
}

/** Signs in with the keyboard only: type, then Enter submits. */
export async function signInWithKeyboard(page: Page, email: string, labels = { email: 'Email', password: 'Password' }) {
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password).fill(PASSWORD);
  await page.getByLabel(labels.password).press('Enter');
  await page.waitForURL('**/dashboard');
}

/** Console errors that are real problems: the browser's own "Failed to load resource" lines for expected 4xx are not. */
export function realErrors(errors: readonly string[]): string[] {
  return errors.filter((line) => !line.startsWith('Failed to load resource'));
}
