// The technician's day and the back office's first steps in Firefox ESR (issue 40): support/engines/journeys.ts.
import { engineJourneys } from '../support/engines/journeys';

engineJourneys('firefox');
