import { notBuilt } from '../not-built.tsx';

export const SettingsPage = notBuilt('Settings', 'See and save settings from the terminal: svc settings.');
