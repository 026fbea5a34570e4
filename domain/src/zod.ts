// zod with Portuguese default messages: every schema of Novus imports z from here.
import { z } from 'zod';

z.config(z.locales.pt());

export { z };
