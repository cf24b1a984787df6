/** The original platform's texts for the `/admin/*` routes (contract facts §11). */
export const ADMIN_DISABLED = 'Admin endpoints are currently disabled.';
export const REPORTS_HANDLED = 'Reports removed and users notified.';
