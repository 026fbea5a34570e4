// The technician's day and the back office's first steps in WebKitGTK (Safari's engine) (issue 40): support/engines/journeys.ts.
import { engineJourneys } from '../support/engines/journeys';

engineJourneys('webkit');
