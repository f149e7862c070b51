// The route table of spec section 2. Public pages are in the first bundle; the signed-in frame and
// screens are loaded on demand behind the sign-in guard.

import { lazy, type ReactElement } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { PublicOnly } from './components/PublicOnly';
import { RequireAuth } from './components/RequireAuth';
import { ScrollToTop } from './components/ScrollToTop';
import { ServerBanner } from './components/ServerBanner';
import { loadScanPage } from './lib/page-chunks';
import { ContactPage } from './pages/contact/ContactPage';
import { ForgotPasswordPage } from './pages/forgot-password/ForgotPasswordPage';
import { LandingPage } from './pages/landing/LandingPage';
import { LoginPage } from './pages/login/LoginPage';
import { PrivacyPage } from './pages/privacy/PrivacyPage';
import { RecoverPage } from './pages/recover/RecoverPage';
import { SecurityPage } from './pages/security/SecurityPage';
import { SignupPage } from './pages/signup/SignupPage';
import { TermsPage } from './pages/terms/TermsPage';
import { UnderConstructionPage } from './pages/under-construction/UnderConstructionPage';

const SignedInLayout = lazy(() => import('./layouts/SignedInLayout'));
const DashboardPage = lazy(() => import('./pages/dashboard/DashboardPage'));
const HomePage = lazy(() => import('./pages/home/HomePage'));
const ManageApisPage = lazy(() => import('./pages/manage-apis/ManageApisPage'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage'));
const DocumentationPage = lazy(() => import('./pages/documentation/DocumentationPage'));
const NotFoundPage = lazy(() => import('./pages/not-found/NotFoundPage'));
const ScanPage = lazy(loadScanPage);
const LatestScanRedirect = lazy(() => import('./pages/scan/LatestScanRedirect'));

export function AppRoutes(): ReactElement {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/landing" replace />} />
      {/* The desktop shell opens app://portcullis/index.html. */}
      <Route path="/index.html" element={<Navigate to="/landing" replace />} />
      <Route path="/landing" element={<PublicOnly><LandingPage /></PublicOnly>} />
      <Route path="/signup" element={<PublicOnly><SignupPage /></PublicOnly>} />
      <Route path="/login" element={<PublicOnly><LoginPage /></PublicOnly>} />
      {/* Older pages link to /register; /signup is the sign-up route (DESIGN.md section 10). */}
      <Route path="/register" element={<Navigate to="/signup" replace />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/recover" element={<RecoverPage />} />
      <Route path="/terms" element={<TermsPage />} />
      <Route path="/security" element={<SecurityPage />} />
      <Route path="/contact" element={<ContactPage />} />
      <Route path="/privacy" element={<PrivacyPage />} />
      <Route path="/public-templates" element={<UnderConstructionPage />} />
      <Route element={<RequireAuth />}>
        <Route element={<SignedInLayout />}>
          <Route path="/dashboard" element={<DashboardPage />} />
          <Route path="/home" element={<HomePage />} />
          <Route path="/manage-apis" element={<ManageApisPage />} />
          <Route path="/scans/:scanId" element={<ScanPage />} />
          <Route path="/apis/:apiId/latest-scan" element={<LatestScanRedirect />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/documentation" element={<DocumentationPage />} />
          <Route path="/guide/:guideId" element={<DocumentationPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}

export function App(): ReactElement {
  return (
    <BrowserRouter>
      <ScrollToTop />
      <ServerBanner />
      <AppRoutes />
    </BrowserRouter>
  );
}
