// The success or error line a back-office screen shows after an action (SPEC.md section 4).
import { Alert } from '@mui/material';

export interface Notice {
  severity: 'success' | 'error';
  text: string;
}

export function NoticeAlert({ notice, onClose }: { notice: Notice | null; onClose?: () => void }) {
  if (notice === null) return null;
  return (
    <Alert
      severity={notice.severity}
      role={notice.severity === 'error' ? 'alert' : 'status'}
      onClose={onClose}
    >
      {notice.text}
    </Alert>
  );
}
