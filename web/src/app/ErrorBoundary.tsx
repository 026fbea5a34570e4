import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CrashReport } from './CrashReport';

interface Props {
  children: ReactNode;
  onError?: (error: unknown, info: ErrorInfo) => void;
  /** A crash stays shown until this changes (the routes pass the address: another screen may work). */
  resetKey?: string;
}

interface State {
  error: unknown;
  failed: boolean;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null, failed: false });
    }
  }

  override render(): ReactNode {
    if (this.state.failed) return <CrashReport error={this.state.error} />;
    return this.props.children;
  }
}
