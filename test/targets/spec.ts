// The OpenAPI 3.0 document of the documented /api/v2 surface. Identical in both modes: old
// versions, docs and debug endpoints, GraphQL and undeclared methods are deliberately absent.

import YAML from 'yaml';
import { CATEGORIES, ORDER_STATUSES, SEED } from './db';
import { CSRF_COOKIE, CSRF_HEADER, type OAUTH_SCOPES, SESSION_COOKIE } from './identity';
import { page, SCHEMAS, type SchemaName } from './schemas';
import type { Schema } from './validate';

type Json = Record<string, unknown>;

interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
  required?: boolean;
  description?: string;
}

interface Op {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /**
   * bearer (default): any of the API's credentials (bearer JWT, X-API-Key, X-Api-Token, OAuth2,
   * session cookie); public: none; signature: webhook HMAC; session: the session cookie only; rewards:
   * the rewards club's own base64 "username:password" header.
   */
  auth?: 'bearer' | 'public' | 'signature' | 'session' | 'rewards';
  params?: Param[];
  body?: SchemaName;
  /** Request media types (default JSON only); the schema is the same for each. */
  bodyTypes?: string[];
  /** The schema of the route's own 400 and 401 bodies (default Error; 413 and 429 are always Error). */
  errorSchema?: SchemaName;
  /** Success responses: status -> [description, schema]. */
  ok: Record<number, [string, (SchemaName | Schema)?, Record<string, Json>?]>;
  /** Extra error statuses besides the ones derived from the operation's shape. */
  errors?: number[];
  /** The media type of the success answers (default JSON). */
  okType?: string;
  description?: string;
}

const PAGES: Record<string, Schema> = {
  ProductPage: page('Product', 'limit'),
  ReviewPage: page('Review', 'pageSize'),
  OrderPage: page('Order', 'pageSize'),
  NotePage: page('Note', 'perPage'),
  ActivityPage: page('Activity', 'perPage'),
};

const arrayOf = (name: SchemaName): Schema => ({ type: 'array', items: { $ref: name } });

const RATING_RESPONSE: Schema = { type: 'object', properties: { id: { type: 'integer' }, productId: { type: 'integer' }, rating: { type: 'integer' }, comment: { type: 'string' }, userId: { type: 'integer' } } };

const P = {
  orderId: { name: 'orderId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: SEED.orders.alice[0] } },
  noteId: { name: 'noteId', in: 'path', required: true, schema: { type: 'string', format: 'uuid', example: SEED.notes.alice[0] } },
  productId: { name: 'productId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 12 } },
  userId: { name: 'userId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: SEED.users.alice } },
  // Another customer's id: the spec's example must not have a caller delete its own account.
  otherUserId: { name: 'userId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: SEED.users.carol } },
  page: { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
} satisfies Record<string, Param>;

const size = (name: string, def: number, max: number): Param => ({
  name,
  in: 'query',
  description: `Items per page (at most ${max}).`,
  schema: { type: 'integer', minimum: 1, maximum: max, default: def },
});

const OPS: Op[] = [
  // ---- auth ----
  { method: 'post', path: '/auth/login', operationId: 'login', summary: 'Sign in with a username and password', tag: 'Auth', auth: 'public', body: 'LoginRequest', ok: { 200: ['Signed in', 'TokenResponse'] }, errors: [401] },
  { method: 'post', path: '/auth/signup', operationId: 'signup', summary: 'Create a customer account', tag: 'Auth', auth: 'public', body: 'SignupRequest', ok: { 201: ['Account created', 'SignupResponse', { Location: { schema: { type: 'string' } } }] }, errors: [409] },
  { method: 'post', path: '/auth/password-reset', operationId: 'requestPasswordReset', summary: 'Email a password reset link', tag: 'Auth', auth: 'public', body: 'PasswordResetRequest', ok: { 202: ['Request accepted (the same answer whether or not the address is registered)', 'Message'] } },
  { method: 'post', path: '/auth/password-reset/confirm', operationId: 'confirmPasswordReset', summary: 'Set a new password with a reset token', tag: 'Auth', auth: 'public', body: 'PasswordResetConfirm', ok: { 200: ['Password changed', 'Message'] } },
  { method: 'post', path: '/auth/otp/send', operationId: 'sendOtp', summary: 'Send a one-time code by SMS', tag: 'Auth', ok: { 202: ['Code sent', 'OtpSent'] } },
  { method: 'post', path: '/auth/otp/verify', operationId: 'verifyOtp', summary: 'Verify the one-time code', tag: 'Auth', body: 'OtpVerify', ok: { 200: ['Verified', 'OtpResult'] } },
  { method: 'post', path: '/auth/verify-email', operationId: 'verifyEmail', summary: 'Verify the e-mail address with the code mailed at sign-up', tag: 'Auth', auth: 'public', body: 'EmailVerify', ok: { 200: ['Verified', 'OtpResult'] } },
  { method: 'post', path: '/auth/sms-login', operationId: 'smsLogin', summary: 'Sign in by phone: a 4-digit code is sent by SMS', tag: 'Auth', auth: 'public', body: 'SmsLoginRequest', ok: { 202: ['Code sent if the number is registered', 'Message'] } },
  { method: 'post', path: '/auth/sms-login/verify', operationId: 'smsLoginVerify', summary: 'Finish the phone sign-in with the code from the SMS', tag: 'Auth', auth: 'public', body: 'SmsLoginVerify', ok: { 200: ['Signed in', 'TokenResponse'] }, errors: [401, 429] },
  {
    method: 'get',
    path: '/auth/csrf',
    operationId: 'getCsrfToken',
    summary: 'A CSRF token before signing in (optional first step of a cookie session)',
    tag: 'Auth',
    auth: 'public',
    ok: { 200: ['The token, also set as a cookie and sent in a header', 'CsrfToken', { 'Set-Cookie': { schema: { type: 'string' }, description: `${CSRF_COOKIE}=<token>` }, [CSRF_HEADER]: { schema: { type: 'string' } } }] },
  },
  {
    method: 'post',
    path: '/auth/session',
    operationId: 'createSession',
    summary: 'Sign in with a cookie session',
    description: `Sets the HttpOnly ${SESSION_COOKIE} cookie and the readable ${CSRF_COOKIE} cookie. POST, PUT, PATCH and DELETE requests signed in by the cookie must send the CSRF token in ${CSRF_HEADER} (403 csrf_failed otherwise).`,
    tag: 'Auth',
    auth: 'public',
    body: 'LoginRequest',
    ok: { 200: ['Signed in', 'SessionLogin', { 'Set-Cookie': { schema: { type: 'string' }, description: `${SESSION_COOKIE} and ${CSRF_COOKIE}` }, [CSRF_HEADER]: { schema: { type: 'string' } } }] },
    errors: [401, 403],
  },
  {
    method: 'delete',
    path: '/auth/session',
    operationId: 'deleteSession',
    summary: 'Sign out of the cookie session',
    tag: 'Auth',
    auth: 'session',
    ok: { 204: ['Signed out; both cookies cleared', undefined, { 'Set-Cookie': { schema: { type: 'string' } } }] },
    errors: [401, 403],
  },
  {
    method: 'post',
    path: '/oauth/token',
    operationId: 'oauthToken',
    summary: 'OAuth2 token endpoint (password, client_credentials and refresh_token grants)',
    description:
      'RFC 6749. Confidential clients authenticate with HTTP Basic (client_id:client_secret) or client_id and client_secret in the body; the public client acme-web sends client_id alone. ' +
      'Refresh tokens are single use: each answer carries the next one, and replaying a used one revokes its successors. Errors follow section 5.2.',
    tag: 'Auth',
    auth: 'public',
    body: 'TokenRequest',
    bodyTypes: ['application/x-www-form-urlencoded', 'application/json'],
    errorSchema: 'OAuthError',
    ok: { 200: ['Access token', 'OAuthToken', { 'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } } }] },
    errors: [401],
  },

  // ---- account ----
  { method: 'get', path: '/me', operationId: 'getMe', summary: 'The signed-in customer', tag: 'Account', ok: { 200: ['The caller', 'User'] } },
  { method: 'patch', path: '/me', operationId: 'updateMe', summary: 'Update the profile', tag: 'Account', body: 'User', ok: { 200: ['Updated', 'User'] }, errors: [409] },
  { method: 'put', path: '/me/password', operationId: 'changePassword', summary: 'Change the password (needs the current one)', tag: 'Account', body: 'PasswordChange', ok: { 200: ['Changed', 'Message'] }, errors: [403] },
  { method: 'get', path: '/exports/storage', operationId: 'exportStorage', summary: 'Where data exports are written', tag: 'Account', ok: { 200: ['The storage', 'ExportStorage'] } },
  {
    method: 'get',
    path: '/account/summary',
    operationId: 'accountSummary',
    summary: 'The account summary a mail links to (the token is in the link)',
    tag: 'Account',
    auth: 'public',
    params: [{ name: 'token', in: 'query', required: true, schema: { type: 'string', description: 'The access token the mail link carries.' } }],
    ok: { 200: ['The summary', 'AccountSummary'] },
    errors: [401],
  },
  {
    method: 'get',
    path: '/account/change-password',
    operationId: 'changePasswordLink',
    summary: 'Change the password (the web client\'s link; needs the current one)',
    tag: 'Account',
    params: [
      // Required by the description (the server only checks it when sent: the flaw), as such links are often documented.
      { name: 'current', in: 'query', required: true, schema: { type: 'string', format: 'password', example: 'the-current-password' } },
      { name: 'new', in: 'query', required: true, schema: { type: 'string', format: 'password', minLength: 8, example: 'N3w-Passw0rd!' } },
      { name: 'repeat', in: 'query', required: true, schema: { type: 'string', format: 'password', minLength: 8, example: 'N3w-Passw0rd!' } },
    ],
    ok: { 200: ['Changed', 'Message'] },
    errors: [403],
  },
  { method: 'put', path: '/users/{userId}/password', operationId: 'setUserPassword', summary: "Change a user's password (the user themself, with the current password)", tag: 'Account', params: [P.userId], body: 'PasswordChange', ok: { 200: ['Changed', 'Message'] }, errors: [403, 404] },
  { method: 'put', path: '/users/{userId}/email', operationId: 'setUserEmail', summary: "Change a user's e-mail address (the user themself, with the current password)", tag: 'Account', params: [P.userId], body: 'EmailChange', ok: { 200: ['Changed', 'User'] }, errors: [403, 404, 409] },
  { method: 'delete', path: '/users/{userId}', operationId: 'deleteUser', summary: 'Delete an account (the user themself, or an administrator)', tag: 'Account', params: [P.otherUserId], ok: { 204: ['Deleted'] }, errors: [403, 404] },
  { method: 'put', path: '/me/avatar', operationId: 'setAvatar', summary: 'Import the avatar from an image URL', tag: 'Account', body: 'AvatarRequest', ok: { 200: ['Avatar stored', 'Avatar'] }, errors: [422, 502] },
  { method: 'get', path: '/users/{userId}/addresses', operationId: 'listAddresses', summary: "A customer's saved addresses", tag: 'Account', params: [P.userId], ok: { 200: ['Addresses', arrayOf('Address')] }, errors: [403] },
  { method: 'get', path: '/activity', operationId: 'listActivity', summary: 'Recent account activity', tag: 'Account', params: [P.page, size('per_page', 20, 50)], ok: { 200: ['A page of events', { $ref: 'ActivityPage' }] } },
  { method: 'get', path: '/integrations', operationId: 'listIntegrations', summary: 'Shipping-label integrations and their public keys', tag: 'Account', ok: { 200: ['Integrations', arrayOf('Integration')] } },

  // ---- catalogue (public) ----
  {
    method: 'get',
    path: '/products',
    operationId: 'listProducts',
    summary: 'List products',
    tag: 'Catalogue',
    auth: 'public',
    params: [
      { name: 'limit', in: 'query', description: 'Page size (at most 100).', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
      { name: 'category', in: 'query', schema: { type: 'string', enum: CATEGORIES, example: 'books' } },
    ],
    ok: { 200: ['A page of products', { $ref: 'ProductPage' }] },
  },
  {
    method: 'get',
    path: '/products/search',
    operationId: 'searchProducts',
    summary: 'Fuzzy product search',
    tag: 'Catalogue',
    auth: 'public',
    params: [{ name: 'q', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 100, example: 'cookbook' } }],
    ok: { 200: ['The ten best matches', 'ProductSearchResult'] },
  },
  { method: 'get', path: '/products/{productId}', operationId: 'getProduct', summary: 'A product', tag: 'Catalogue', auth: 'public', params: [P.productId], ok: { 200: ['The product', 'Product'] }, errors: [404] },
  {
    method: 'get',
    path: '/products/{productId}/reviews',
    operationId: 'listReviews',
    summary: "A product's reviews",
    tag: 'Catalogue',
    auth: 'public',
    params: [P.productId, P.page, size('page_size', 10, 50)],
    ok: { 200: ['A page of reviews', { $ref: 'ReviewPage' }] },
    errors: [404],
  },
  { method: 'post', path: '/products/{productId}/reviews', operationId: 'createReview', summary: 'Review (comment on) a product', tag: 'Catalogue', params: [P.productId], body: 'Review', ok: { 201: ['Review published', 'Review', { Location: { schema: { type: 'string' } } }] }, errors: [404] },
  { method: 'post', path: '/products/{productId}/votes', operationId: 'voteProduct', summary: 'Up- or down-vote a product', tag: 'Catalogue', params: [P.productId], body: 'VoteRequest', ok: { 200: ['Vote counted', 'VoteResult'] }, errors: [404] },
  {
    method: 'get',
    path: '/categories/{category}/products',
    operationId: 'listCategoryProducts',
    summary: 'The products of a category',
    tag: 'Catalogue',
    auth: 'public',
    params: [{ name: 'category', in: 'path', required: true, schema: { type: 'string', example: 'books' } }],
    ok: { 200: ['The products', { $ref: 'ProductPage' }] },
    errors: [404],
  },
  {
    method: 'get',
    path: '/stores',
    operationId: 'listStores',
    summary: 'Acme stores in a city',
    tag: 'Catalogue',
    auth: 'public',
    params: [{ name: 'city', in: 'query', required: true, schema: { type: 'string', maxLength: 64, example: 'Lyon' } }],
    ok: { 200: ['The stores', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, city: { type: 'string' } } } } } }] },
  },

  // ---- orders ----
  {
    method: 'get',
    path: '/orders',
    operationId: 'listOrders',
    summary: "The caller's orders",
    tag: 'Orders',
    params: [P.page, size('page_size', 20, 50), { name: 'status', in: 'query', schema: { type: 'string', enum: ORDER_STATUSES, example: 'shipped' } }],
    ok: { 200: ['A page of orders', { $ref: 'OrderPage' }] },
  },
  { method: 'post', path: '/orders', operationId: 'createOrder', summary: 'Place an order (paid later at checkout or by the payment provider)', tag: 'Orders', body: 'Order', ok: { 201: ['Order placed', 'Order', { Location: { schema: { type: 'string' } } }] } },
  { method: 'get', path: '/orders/{orderId}', operationId: 'getOrder', summary: 'An order', tag: 'Orders', params: [P.orderId], ok: { 200: ['The order', 'Order'] }, errors: [404] },
  {
    method: 'get',
    path: '/coupons/check',
    operationId: 'checkCoupon',
    summary: 'Check a coupon code before checkout',
    tag: 'Orders',
    params: [{ name: 'code', in: 'query', required: true, schema: { type: 'string', maxLength: 32, example: 'WELCOME10' } }],
    ok: { 200: ['The coupon', { type: 'object', properties: { code: { type: 'string' }, percentOff: { type: 'integer' } } }] },
    errors: [404],
  },
  { method: 'post', path: '/invoices/lookup', operationId: 'lookupInvoice', summary: "The invoice of one of the caller's orders", tag: 'Orders', body: 'InvoiceLookup', ok: { 200: ['The invoice', 'Invoice'] }, errors: [404] },

  // ---- payments ----
  { method: 'post', path: '/checkout', operationId: 'checkout', summary: 'Buy items now with a saved card', tag: 'Payments', body: 'CheckoutRequest', ok: { 201: ['Paid', 'CheckoutResult', { Location: { schema: { type: 'string' } } }] } },
  { method: 'get', path: '/payment-methods', operationId: 'listPaymentMethods', summary: 'Saved cards', tag: 'Payments', ok: { 200: ['Cards', arrayOf('PaymentMethod')] } },
  { method: 'get', path: '/transfers', operationId: 'listTransfers', summary: 'Wallet transfers sent and received', tag: 'Payments', ok: { 200: ['Transfers', arrayOf('Transfer')] } },
  { method: 'post', path: '/transfers', operationId: 'createTransfer', summary: 'Send wallet money to another customer', tag: 'Payments', body: 'Transfer', ok: { 201: ['Sent', 'Transfer', { Location: { schema: { type: 'string' } } }] }, errors: [422] },

  // ---- notes ----
  { method: 'get', path: '/notes', operationId: 'listNotes', summary: "The caller's notes", tag: 'Notes', params: [P.page, size('per_page', 20, 50)], ok: { 200: ['A page of notes', { $ref: 'NotePage' }] } },
  { method: 'post', path: '/notes', operationId: 'createNote', summary: 'Create a note', tag: 'Notes', body: 'Note', ok: { 201: ['Created', 'Note', { Location: { schema: { type: 'string' } } }] } },
  { method: 'get', path: '/notes/{noteId}', operationId: 'getNote', summary: 'A note', tag: 'Notes', params: [P.noteId], ok: { 200: ['The note', 'Note'] }, errors: [404] },
  { method: 'put', path: '/notes/{noteId}', operationId: 'replaceNote', summary: 'Replace a note', tag: 'Notes', params: [P.noteId], body: 'Note', ok: { 200: ['Replaced', 'Note'] }, errors: [404] },
  { method: 'get', path: '/notes/{noteId}/print', operationId: 'printNote', summary: 'A note as a printable HTML page', tag: 'Notes', params: [P.noteId], okType: 'text/html', ok: { 200: ['The page', { type: 'string' }] }, errors: [404] },
  { method: 'delete', path: '/notes/{noteId}', operationId: 'deleteNote', summary: 'Delete a note', tag: 'Notes', params: [P.noteId], ok: { 204: ['Deleted'] }, errors: [404] },

  // ---- pinboard and gift cards ----
  {
    method: 'get',
    path: '/members',
    operationId: 'listMembers',
    summary: 'The member directory',
    tag: 'Pinboard',
    ok: { 200: ['The members', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, username: { type: 'string' }, displayName: { type: 'string' } } } } } }] },
  },
  { method: 'post', path: '/bulletins', operationId: 'postBulletin', summary: 'Post a bulletin on the notice board', tag: 'Pinboard', body: 'Pin', ok: { 201: ['Posted', 'Pin'] } },
  { method: 'get', path: '/bulletins/{bulletinId}', operationId: 'getBulletin', summary: 'A bulletin', tag: 'Pinboard', auth: 'public', params: [{ name: 'bulletinId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 1 } }], ok: { 200: ['The bulletin', 'Pin'] }, errors: [404] },
  {
    method: 'delete',
    path: '/bulletins/{bulletinId}',
    operationId: 'removeBulletin',
    summary: 'Remove a bulletin (moderators)',
    tag: 'Pinboard',
    params: [
      { name: 'bulletinId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 1 } },
      { name: 'X-Is-Moderator', in: 'header', required: false, schema: { type: 'string' } },
    ],
    ok: { 204: ['Removed'] },
    errors: [403, 404],
  },
  { method: 'post', path: '/pins', operationId: 'createPin', summary: 'Pin a message to the shared pinboard', tag: 'Pinboard', body: 'Pin', ok: { 201: ['Pinned', 'Pin'] } },
  {
    method: 'get',
    path: '/pins',
    operationId: 'listPins',
    summary: 'The latest pins, as JSON or as an HTML fragment for the shop front',
    tag: 'Pinboard',
    params: [{ name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'html'], example: 'html' } }],
    ok: { 200: ['The pins', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, ownerId: { type: 'integer' }, text: { type: 'string' } } } } } }] },
  },
  { method: 'get', path: '/pinboard', operationId: 'showPinboard', summary: 'The pinboard wall as an HTML page', tag: 'Pinboard', okType: 'text/html', ok: { 200: ['The page', { type: 'string' }] } },
  {
    method: 'get',
    path: '/recipes',
    operationId: 'searchRecipes',
    summary: 'Search the recipes',
    tag: 'Pinboard',
    params: [{ name: 'q', in: 'query', schema: { type: 'string', maxLength: 100, example: 'soup' } }],
    ok: { 200: ['The recipes', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, summary: { type: 'string' }, deletedAt: { type: 'string', nullable: true } } } } } }] },
  },
  { method: 'post', path: '/rewards/members', operationId: 'joinRewards', summary: 'Join the rewards club (its members are its own, not the shop\'s customers)', tag: 'Rewards', auth: 'public', body: 'RewardsSignup', ok: { 201: ['Member created', 'RewardsMember'] }, errors: [409] },
  { method: 'get', path: '/rewards/members/me', operationId: 'getRewardsMember', summary: 'The calling rewards member and their points', tag: 'Rewards', auth: 'rewards', ok: { 200: ['The member', 'RewardsMember'] }, errors: [401] },
  { method: 'post', path: '/mobile/login', operationId: 'mobileLogin', summary: 'Sign in from the older mobile app with a username and password', tag: 'Auth', auth: 'public', body: 'LoginRequest', ok: { 200: ['Signed in', 'TokenResponse'] }, errors: [401] },
  { method: 'post', path: '/cards/preview', operationId: 'previewCard', summary: 'Preview a greeting card (${name} is the signed-in user\'s name)', tag: 'Pinboard', body: 'CardPreview', ok: { 200: ['The preview', { type: 'object', properties: { preview: { type: 'string' } } }] }, errors: [422] },
  {
    method: 'post',
    path: '/me/avatar',
    operationId: 'uploadAvatar',
    summary: 'Upload your profile picture (PNG or JPEG, at most 100 KB)',
    tag: 'Account',
    body: 'AvatarUpload',
    bodyTypes: ['multipart/form-data'],
    ok: { 201: ['Stored', { type: 'object', properties: { size: { type: 'integer' }, type: { type: 'string' } } }] },
    errors: [413, 415],
  },
  {
    method: 'get',
    path: '/feedback/challenge',
    operationId: 'getFeedbackChallenge',
    summary: 'A challenge (CAPTCHA) to answer before leaving feedback',
    tag: 'Tools',
    auth: 'public',
    ok: { 200: ['The challenge', { type: 'object', properties: { challengeId: { type: 'string' }, question: { type: 'string' } } }] },
  },
  {
    method: 'post',
    path: '/feedback',
    operationId: 'postFeedback',
    summary: 'Leave feedback (with the answer to a fresh challenge)',
    tag: 'Tools',
    auth: 'public',
    body: 'FeedbackPost',
    ok: { 201: ['Posted', { type: 'object', properties: { id: { type: 'integer' }, message: { type: 'string' } } }] },
  },
  {
    method: 'get',
    path: '/ratings/captcha',
    operationId: 'getRatingCaptcha',
    summary: 'A CAPTCHA to answer before rating a product',
    tag: 'Shop',
    auth: 'public',
    ok: { 200: ['The challenge', { type: 'object', properties: { captchaId: { type: 'integer' }, captcha: { type: 'string' } } }] },
  },
  {
    method: 'post',
    path: '/ratings',
    operationId: 'rateProduct',
    summary: 'Rate a product (with the answer to a fresh CAPTCHA)',
    tag: 'Shop',
    body: 'RatingPost',
    ok: { 201: ['Rated', RATING_RESPONSE] },
    errors: [400],
  },
  {
    method: 'get',
    path: '/ratings/{ratingId}',
    operationId: 'getRating',
    summary: 'One of your ratings',
    tag: 'Shop',
    params: [{ name: 'ratingId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 1 } }],
    ok: { 200: ['The rating', RATING_RESPONSE] },
    errors: [404],
  },
  {
    method: 'post',
    path: '/promotions/redeem',
    operationId: 'redeemPromoCode',
    summary: 'Redeem a promo code (once per customer): adds store credit',
    tag: 'Payments',
    body: 'PromoRedeem',
    ok: { 200: ['Redeemed', { type: 'object', properties: { redeemed: { type: 'boolean' }, code: { type: 'string' }, credit: { type: 'integer' }, credits: { type: 'integer' } } }] },
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/directory/people',
    operationId: 'searchDirectory',
    summary: 'Company directory entries by login (uid)',
    tag: 'Tools',
    params: [{ name: 'uid', in: 'query', required: true, schema: { type: 'string', maxLength: 100, example: 'alice' } }],
    ok: { 200: ['The entries', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { uid: { type: 'string' }, name: { type: 'string' }, department: { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' } } } } } }] },
  },
  {
    method: 'get',
    path: '/directory/extensions',
    operationId: 'findPhoneExtension',
    summary: 'Phone extension of a colleague, from the phone book',
    tag: 'Tools',
    params: [{ name: 'login', in: 'query', required: true, schema: { type: 'string', maxLength: 100, example: 'alice' } }],
    ok: { 200: ['The extensions', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { login: { type: 'string' }, name: { type: 'string' }, extension: { type: 'string' } } } } } }] },
  },
  {
    method: 'get',
    path: '/downloads/preview',
    operationId: 'previewDownload',
    summary: 'The first lines of a download',
    tag: 'Tools',
    params: [
      { name: 'file', in: 'query', required: true, schema: { type: 'string', maxLength: 100, example: 'returns-policy.txt' } },
      { name: 'lines', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 20, default: 3 } },
    ],
    ok: { 200: ['The preview', { type: 'object', properties: { file: { type: 'string' }, preview: { type: 'string' } } }] },
    errors: [404, 422],
  },
  {
    method: 'post',
    path: '/reports/run',
    operationId: 'runReport',
    summary: 'Run a report: the reporting screen sends the statement of a saved report',
    tag: 'Tools',
    body: 'ReportRun',
    ok: { 200: ['The rows', { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } } }] },
    errors: [403],
  },
  {
    method: 'get',
    path: '/stores/{storeId}/reviews',
    operationId: 'listStoreReviews',
    summary: 'The reviews of a store',
    tag: 'Catalogue',
    auth: 'public',
    params: [{ name: 'storeId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 1 } }],
    ok: { 200: ['The reviews', { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, store: { type: 'integer' }, stars: { type: 'integer' }, text: { type: 'string' } } } } } }] },
  },
  {
    method: 'get',
    path: '/stores/{storeId}/tips',
    operationId: 'listStoreTips',
    summary: 'Shoppers\' tips on a store',
    tag: 'Catalogue',
    auth: 'public',
    params: [{ name: 'storeId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 1 } }],
    ok: { 200: ['The tips', { type: 'object', properties: { status: { type: 'string' }, data: { type: 'array', items: { type: 'object', properties: { _id: { type: 'string' }, storeId: { type: 'integer' }, text: { type: 'string' } } } } } }] },
  },
  {
    method: 'put',
    path: '/stores/{storeId}/tips',
    operationId: 'writeStoreTip',
    summary: 'Write a tip on a store',
    tag: 'Catalogue',
    params: [{ name: 'storeId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 1 } }],
    body: 'TipRequest',
    ok: { 201: ['Written', { type: 'object', properties: { status: { type: 'string' } } }] },
    errors: [400, 404],
  },
  {
    method: 'patch',
    path: '/stores/tips',
    operationId: 'editStoreTip',
    summary: 'Edit one\'s tip',
    tag: 'Catalogue',
    body: 'TipEdit',
    ok: { 200: ['Edited', { type: 'object', properties: { status: { type: 'string' } } }] },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/gift-cards/{code}',
    operationId: 'getGiftCard',
    summary: 'The balance of a gift card',
    tag: 'Pinboard',
    params: [{ name: 'code', in: 'path', required: true, schema: { type: 'string', example: 'gc-7f3a-2b91' } }],
    ok: { 200: ['The card', { type: 'object', properties: { code: { type: 'string' }, balance: { type: 'number' } } }] },
    errors: [404],
  },

  // ---- documents and downloads ----
  { method: 'get', path: '/documents', operationId: 'listDocuments', summary: "The caller's documents", tag: 'Documents', ok: { 200: ['Documents', arrayOf('Document')] } },
  {
    method: 'get',
    path: '/documents/download',
    operationId: 'downloadDocument',
    summary: 'The content of a document',
    tag: 'Documents',
    params: [{ name: 'documentId', in: 'query', required: true, schema: { type: 'string', maxLength: 64, example: SEED.documents.alice[0] } }],
    ok: { 200: ['The document', 'DocumentContent'] },
    errors: [404],
  },
  { method: 'get', path: '/downloads', operationId: 'listDownloads', summary: 'Public files (catalogues, policies)', tag: 'Documents', ok: { 200: ['Files', arrayOf('DownloadFile')] } },
  {
    method: 'get',
    path: '/downloads/content',
    operationId: 'downloadFile',
    summary: 'Download a public file',
    tag: 'Documents',
    params: [{ name: 'file', in: 'query', required: true, schema: { type: 'string', maxLength: 128, example: 'catalog-2026.txt' } }],
    ok: { 200: ['The file', { type: 'string' }] },
    errors: [404],
  },
  {
    method: 'get',
    path: '/downloads/checksum',
    operationId: 'fileChecksum',
    summary: 'SHA-256 of a public file',
    tag: 'Documents',
    params: [{ name: 'file', in: 'query', required: true, schema: { type: 'string', maxLength: 128, example: 'catalog-2026.txt' } }],
    ok: { 200: ['The checksum', 'Checksum'] },
    errors: [404],
  },

  // ---- tools and integrations ----
  { method: 'post', path: '/link-preview', operationId: 'linkPreview', summary: 'Preview a web page (title, description, first characters)', tag: 'Tools', body: 'LinkPreviewRequest', ok: { 200: ['The preview', 'LinkPreview'] }, errors: [502] },
  {
    method: 'post',
    path: '/link-archive',
    operationId: 'archiveLink',
    summary: 'Save a copy of a web page (returned base64-encoded)',
    tag: 'Tools',
    body: 'LinkPreviewRequest',
    ok: { 200: ['The copy', { type: 'object', properties: { url: { type: 'string' }, status: { type: 'integer' }, contentType: { type: 'string' }, content: { type: 'string', description: 'The fetched body, base64-encoded.' } } }] },
    errors: [502],
  },
  {
    method: 'get',
    path: '/carts/{cartId}',
    operationId: 'getCart',
    summary: "The caller's saved cart (its id is in the login answer)",
    tag: 'Orders',
    params: [{ name: 'cartId', in: 'path', required: true, description: 'The cart id from the login answer.', schema: { type: 'integer', example: 1 } }],
    ok: {
      200: [
        'The cart',
        {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            UserId: { type: 'integer' },
            items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer' } } } },
            coupon: { type: 'string', nullable: true },
            currency: { type: 'string' },
          },
        },
      ],
    },
    errors: [404],
  },
  {
    method: 'post',
    path: '/cart-items',
    operationId: 'addCartItem',
    summary: "Put a product into the caller's saved cart",
    tag: 'Orders',
    body: 'CartItemRequest',
    ok: { 201: ['Added', { type: 'object', properties: { id: { type: 'integer' }, cartId: { type: 'integer' }, sku: { type: 'string' }, quantity: { type: 'integer' } } }] },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/reservations',
    operationId: 'reserveProduct',
    summary: 'Reserve a product (one reservation per product)',
    tag: 'Orders',
    body: 'ReservationRequest',
    ok: { 201: ['Reserved', 'Reservation'] },
    errors: [400, 404, 409],
  },
  {
    method: 'get',
    path: '/reservations/{reservationId}',
    operationId: 'getReservation',
    summary: "One of the caller's reservations",
    tag: 'Orders',
    params: [{ name: 'reservationId', in: 'path', required: true, schema: { type: 'integer', minimum: 1, example: 1 } }],
    ok: { 200: ['The reservation', 'Reservation'] },
    errors: [404],
  },
  {
    method: 'get',
    path: '/receipts/{receiptId}',
    operationId: 'getReceipt',
    summary: "The receipt of one of the caller's orders",
    tag: 'Orders',
    params: [{ name: 'receiptId', in: 'path', required: true, description: 'The order id, base64-encoded.', schema: { type: 'string', example: Buffer.from(String(SEED.orders.bob[0])).toString('base64') } }],
    ok: {
      200: [
        'The receipt',
        {
          type: 'object',
          properties: {
            receiptId: { type: 'string' },
            orderId: { type: 'integer' },
            customer: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } } },
            items: { type: 'array', items: { type: 'object' } },
            total: { type: 'number' },
            currency: { type: 'string' },
            issuedAt: { type: 'string', format: 'date-time' },
          },
        },
      ],
    },
    errors: [404],
  },
  {
    method: 'get',
    path: '/maintenance/reset',
    operationId: 'resetDemoData',
    summary: 'Reset the demo data: delete every note customers wrote (administrators)',
    tag: 'Admin',
    ok: { 200: ['Reset', { type: 'object', properties: { message: { type: 'string' }, notesDeleted: { type: 'integer' } } }] },
    errors: [403],
  },
  {
    method: 'get',
    path: '/links/out',
    operationId: 'followLink',
    summary: 'Redirect to a shop page (used in e-mails)',
    tag: 'Tools',
    auth: 'public',
    params: [{ name: 'url', in: 'query', required: true, description: 'A shop path or https://shop.acme.example URL.', schema: { type: 'string', maxLength: 2048, example: '/products/12' } }],
    ok: { 302: ['Redirect', undefined, { Location: { schema: { type: 'string' } } }] },
  },
  {
    method: 'post',
    path: '/webhooks/payment-provider',
    operationId: 'paymentProviderWebhook',
    summary: 'Callback: payment events from the payment provider',
    description: 'Signed by the provider: X-Acme-Signature is "sha256=" and the hex HMAC-SHA256 of the raw body with the shared webhook secret.',
    tag: 'Webhooks',
    auth: 'signature',
    params: [{ name: 'X-Acme-Signature', in: 'header', required: true, schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } }],
    body: 'PaymentEvent',
    ok: { 200: ['Event received', 'WebhookAck'] },
    errors: [401],
  },

  // ---- admin ----
  { method: 'get', path: '/admin/users', operationId: 'adminListUsers', summary: 'All users (administrators)', tag: 'Admin', ok: { 200: ['Users', arrayOf('AdminUser')] }, errors: [403] },
  { method: 'patch', path: '/admin/users/{userId}', operationId: 'adminUpdateUser', summary: "Change a user's role (administrators)", tag: 'Admin', params: [P.userId], body: 'AdminUserUpdate', ok: { 200: ['Updated', 'AdminUser'] }, errors: [403, 404] },
  { method: 'get', path: '/admin/stats', operationId: 'adminStats', summary: 'Shop statistics (administrators)', tag: 'Admin', ok: { 200: ['Statistics', 'AdminStats'] }, errors: [403] },
];

// Informational: tokens carry the scope claim, routes do not restrict by it.
const SCOPES: Record<(typeof OAUTH_SCOPES)[number], string> = { read: 'Read the account and shop data', write: 'Change the account and shop data' };

const ERROR_TEXT: Record<number, string> = {
  400: 'The request is not valid',
  401: 'Missing or invalid credentials',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  422: 'Not processable',
  429: 'Too many requests',
  502: 'An upstream fetch failed',
};

/** Replaces nested copies of named schemas and {$ref: Name} by JSON references. */
function emit(s: Schema | Json, root: unknown, byObject: Map<unknown, string>): Json {
  if (s !== root && byObject.has(s)) return { $ref: `#/components/schemas/${byObject.get(s)}` };
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) out.$ref = `#/components/schemas/${v}`;
    else if (k === 'properties' && v && typeof v === 'object') out.properties = Object.fromEntries(Object.entries(v).map(([n, p]) => [n, emit(p as Schema, root, byObject)]));
    else if (k === 'items' && v && typeof v === 'object') out.items = emit(v as Schema, root, byObject);
    else if (Array.isArray(v)) out[k] = [...(v as unknown[])];
    else out[k] = v;
  }
  return out;
}

export interface SpecBundle {
  object: Json;
  yaml: string;
  json: string;
}

function build(origin: string): SpecBundle {
  const named: Record<string, Schema> = { ...SCHEMAS, ...PAGES };
  const byObject = new Map<unknown, string>(Object.entries(named).map(([n, s]) => [s, n]));
  const ref = (s: SchemaName | Schema | undefined): Json | undefined =>
    s === undefined ? undefined : typeof s === 'string' ? { $ref: `#/components/schemas/${s}` } : emit(s, undefined, byObject);

  const paths: Record<string, Json> = {};
  for (const op of OPS) {
    const auth = op.auth ?? 'bearer';
    const statuses = new Set<number>(op.errors ?? []);
    if (op.body || op.params?.length) statuses.add(400);
    if (op.body) statuses.add(413);
    if (auth === 'bearer' || auth === 'session') statuses.add(401);
    // A cookie session without its CSRF token (any state-changing call may be one).
    if ((auth === 'bearer' || auth === 'session') && op.method !== 'get') statuses.add(403);
    if (auth !== 'signature') statuses.add(429);
    const responses: Json = {};
    for (const [status, [description, schema, headers]] of Object.entries(op.ok)) {
      const r: Json = { description };
      const content = ref(schema);
      if (content) r.content = { [status === '200' && op.operationId === 'downloadFile' ? 'text/plain' : (op.okType ?? 'application/json')]: { schema: content } };
      if (headers) r.headers = headers;
      responses[status] = r;
    }
    for (const s of [...statuses].sort()) {
      const schema = op.errorSchema && (s === 400 || s === 401) ? op.errorSchema : 'Error';
      const r: Json = { description: ERROR_TEXT[s] ?? 'Error', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } };
      if (s === 429) r.headers = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } };
      if (s === 401) r.headers = { 'WWW-Authenticate': { schema: { type: 'string' } } };
      if (s === 403 && (auth === 'bearer' || auth === 'session') && op.method !== 'get') r.description = `${ERROR_TEXT[403]} (also: csrf_failed, a cookie session without ${CSRF_HEADER})`;
      responses[String(s)] = r;
    }
    const operation: Json = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...(op.params ? { parameters: op.params.map((p) => ({ ...p, schema: ref(p.schema) })) } : {}),
      ...(op.body ? { requestBody: { required: true, content: Object.fromEntries((op.bodyTypes ?? ['application/json']).map((type) => [type, { schema: ref(op.body) }])) } } : {}),
      responses,
      ...(auth === 'bearer' ? {} : { security: auth === 'session' ? [{ sessionCookie: [] }] : auth === 'rewards' ? [{ rewardsAuth: [] }] : [] }),
    };
    paths[op.path] = { ...(paths[op.path] ?? {}), [op.method]: operation };
  }

  const object: Json = {
    openapi: '3.0.3',
    info: {
      title: 'Acme Shop API',
      version: '2.4.1',
      description:
        'Customer API of the Acme online shop: catalogue, orders, payments, wallet transfers, notes and documents. ' +
        'Authenticate with a bearer JWT from POST /auth/login or from the OAuth2 token endpoint POST /oauth/token, an API key in the X-API-Key header, ' +
        `either of them in the X-Api-Token header, or a cookie session from POST /auth/session (state-changing calls then need ${CSRF_HEADER}).`,
      contact: { name: 'Acme API team', email: 'api-team@acme.example' },
    },
    servers: [{ url: `${origin}/api/v2`, description: 'This instance' }],
    tags: ['Auth', 'Account', 'Catalogue', 'Orders', 'Payments', 'Notes', 'Documents', 'Tools', 'Webhooks', 'Admin', 'Rewards'].map((name) => ({ name })),
    // Alternatives: any one of them signs a request in.
    security: [{ bearerAuth: [] }, { apiKeyAuth: [] }, { apiTokenAuth: [] }, { oauth2: [] }, { sessionCookie: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        apiTokenAuth: { type: 'apiKey', in: 'header', name: 'X-Api-Token', description: 'A JWT (as for bearerAuth) or an API key (as for apiKeyAuth).' },
        // An absolute tokenUrl: OpenAPI 3.0.3 allows one relative to the server URL, but tools
        // disagree on the base (Swagger UI resolves against the page).
        oauth2: {
          type: 'oauth2',
          description: 'Access tokens are the same JWTs as bearerAuth. Clients: acme-web (public), alice-service, bob-service, admin-service (confidential).',
          flows: {
            password: { tokenUrl: `${origin}/api/v2/oauth/token`, refreshUrl: `${origin}/api/v2/oauth/token`, scopes: SCOPES },
            clientCredentials: { tokenUrl: `${origin}/api/v2/oauth/token`, scopes: SCOPES },
          },
        },
        rewardsAuth: { type: 'apiKey', in: 'header', name: 'X-Rewards-Auth', description: 'Rewards club only: "username:password" of a club member, base64-encoded.' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: `From POST /auth/session. POST, PUT, PATCH and DELETE also need the CSRF token in ${CSRF_HEADER}.` },
      },
      schemas: Object.fromEntries(Object.entries(named).map(([n, s]) => [n, emit(s, s, byObject)])),
    },
  };
  return { object, yaml: YAML.stringify(object, { aliasDuplicateObjects: false }), json: JSON.stringify(object, null, 2) };
}

const PLACEHOLDER = 'http://acme-origin.invalid';
let cached: SpecBundle | undefined;

/** The spec for a target at `origin` (built once, then the server URL is filled in). */
export function buildSpec(origin: string): SpecBundle {
  cached ??= build(PLACEHOLDER);
  const json = cached.json.replaceAll(PLACEHOLDER, origin);
  return { object: JSON.parse(json) as Json, yaml: cached.yaml.replaceAll(PLACEHOLDER, origin), json };
}

/** The documented operations as "METHOD /api/v2/path" lines (for tests and docs). */
export function documentedOperations(): string[] {
  return OPS.map((o) => `${o.method.toUpperCase()} /api/v2${o.path}`);
}
