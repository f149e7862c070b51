// Request and response schemas: published in the OpenAPI spec under components.schemas and
// enforced by the hardened twin from the very same objects.

import { CATEGORIES, ORDER_STATUSES } from './db';
import type { Schema } from './validate';

const str = (o: Partial<Schema> = {}): Schema => ({ type: 'string', ...o });
const int = (o: Partial<Schema> = {}): Schema => ({ type: 'integer', ...o });
const num = (o: Partial<Schema> = {}): Schema => ({ type: 'number', ...o });
const bool = (o: Partial<Schema> = {}): Schema => ({ type: 'boolean', ...o });
const obj = (properties: Record<string, Schema>, required: string[] = [], o: Partial<Schema> = {}): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
  ...o,
});
const arr = (items: Schema, o: Partial<Schema> = {}): Schema => ({ type: 'array', items, ...o });
const ro = (s: Schema): Schema => ({ ...s, readOnly: true });
const dateTime = (o: Partial<Schema> = {}) => str({ format: 'date-time', example: '2026-03-01T09:00:00.000Z', ...o });

const Votes = obj({ up: int({ minimum: 0 }), down: int({ minimum: 0 }) }, ['up', 'down']);

const OrderItem = obj(
  {
    productId: int({ minimum: 1, example: 12 }),
    quantity: int({ minimum: 1, maximum: 10, example: 1 }),
    name: ro(str({ example: 'Granite Cookbook' })),
    unitPrice: ro(num({ format: 'double', example: 24.99 })),
  },
  ['productId', 'quantity'],
);

export const SCHEMAS = {
  Error: {
    type: 'object',
    properties: {
      error: str({ example: 'not_found' }),
      message: str({ example: 'Order not found.' }),
      errors: arr(obj({ field: str(), message: str() })),
      retryAfter: int(),
    },
    required: ['error', 'message'],
  } as Schema,
  LoginRequest: obj(
    {
      username: str({ minLength: 1, maxLength: 64, example: 'alice' }),
      password: str({ format: 'password', minLength: 1, maxLength: 128, example: 'correct-horse-battery-staple' }),
    },
    ['username', 'password'],
  ),
  TokenResponse: obj(
    {
      accessToken: str({ description: 'HS256 JWT for the Authorization: Bearer header.' }),
      tokenType: str({ enum: ['Bearer'] }),
      expiresIn: int({ description: 'Seconds.', example: 86400 }),
      cartId: int({ description: 'The signed-in user\'s saved cart (GET /carts/{cartId}).', example: 1 }),
    },
    ['accessToken', 'tokenType', 'expiresIn'],
  ),
  CartItemRequest: obj(
    {
      cartId: int({ minimum: 1, description: 'The cart to add to (the caller\'s, from the login answer).', example: 1 }),
      sku: str({ minLength: 1, maxLength: 40, example: 'MUG-011' }),
      quantity: int({ minimum: 1, maximum: 99, example: 1 }),
    },
    ['cartId', 'sku', 'quantity'],
  ),
  Reservation: obj({ id: int(), productId: int(), quantity: int(), status: str({ example: 'held' }) }),
  TipRequest: obj({ text: str({ minLength: 1, maxLength: 500, example: 'Come early on Saturdays.' }) }, ['text']),
  TipEdit: obj({ id: str({ minLength: 1, maxLength: 64, example: '64b7f0c2a1e4d3b2c1a09f8e' }), text: str({ minLength: 1, maxLength: 500, example: 'Come early on Sundays too.' }) }, ['id', 'text']),
  ReservationRequest: obj(
    {
      productId: int({ minimum: 1, description: 'The product to reserve (one reservation per product).', example: 12 }),
      quantity: int({ minimum: 1, maximum: 5, example: 1 }),
    },
    ['productId', 'quantity'],
  ),
  SignupRequest: obj(
    {
      username: str({ pattern: '^[a-z0-9_.-]{3,32}$', minLength: 3, maxLength: 32, example: 'dana_k' }),
      email: str({ format: 'email', maxLength: 254, example: 'dana@example.com' }),
      password: str({ format: 'password', minLength: 10, maxLength: 128, example: 'correct-horse-battery-staple' }),
      passwordConfirmation: str({ format: 'password', maxLength: 128, description: 'The password typed again; compared with password when sent.', example: 'correct-horse-battery-staple' }),
    },
    ['username', 'email', 'password'],
  ),
  RewardsSignup: obj(
    {
      username: str({ pattern: '^[a-z0-9_.-]{3,32}$', minLength: 3, maxLength: 32, example: 'dana_k' }),
      password: str({ format: 'password', minLength: 10, maxLength: 128, example: 'correct-horse-battery-staple' }),
      displayName: str({ minLength: 1, maxLength: 80, example: 'Dana K.' }),
    },
    ['username', 'password'],
  ),
  RewardsMember: obj({ id: int(), username: str(), displayName: str(), points: int({ description: 'Points earned with purchases.' }) }, ['id', 'username', 'displayName', 'points']),
  SignupResponse: obj({ id: int(), username: str(), email: str({ format: 'email' }) }, ['id', 'username', 'email']),
  PasswordResetRequest: obj({ email: str({ format: 'email', maxLength: 254, example: 'alice@acme.test' }) }, ['email']),
  Message: obj({ message: str() }, ['message']),
  PasswordResetConfirm: obj(
    {
      token: str({ minLength: 20, maxLength: 128, example: 'k3J9cWx0b2tlbi1leGFtcGxlLXZhbHVl' }),
      newPassword: str({ format: 'password', minLength: 10, maxLength: 128, example: 'correct-horse-battery-staple' }),
    },
    ['token', 'newPassword'],
  ),
  PasswordChange: obj(
    {
      currentPassword: str({ format: 'password', minLength: 1, maxLength: 128, example: 'correct-horse-battery-staple' }),
      newPassword: str({ format: 'password', minLength: 10, maxLength: 128, example: 'a-new-long-passphrase' }),
    },
    ['currentPassword', 'newPassword'],
  ),
  EmailChange: obj(
    {
      email: str({ format: 'email', maxLength: 254, example: 'alice.new@example.com' }),
      currentPassword: str({ format: 'password', minLength: 1, maxLength: 128, example: 'correct-horse-battery-staple' }),
    },
    ['email', 'currentPassword'],
  ),
  TokenRequest: obj(
    {
      grant_type: str({ enum: ['password', 'client_credentials', 'refresh_token'], example: 'password' }),
      username: str({ maxLength: 64, description: 'password grant.', example: 'alice' }),
      password: str({ format: 'password', maxLength: 128, description: 'password grant.', example: 'correct-horse-battery-staple' }),
      client_id: str({ maxLength: 64, description: 'A public client identifies itself with this alone; a confidential one prefers HTTP Basic.', example: 'acme-web' }),
      client_secret: str({ format: 'password', maxLength: 128, description: 'Client authentication in the body (HTTP Basic is preferred; never both).' }),
      refresh_token: str({ maxLength: 256, description: 'refresh_token grant. Single use: the answer carries its successor.' }),
      scope: str({ maxLength: 200, description: 'Space-separated: read, write. Default: both.', example: 'read write' }),
    },
    ['grant_type'],
  ),
  OAuthToken: obj(
    {
      access_token: str({ description: 'HS256 JWT, accepted as a bearer token on every route.' }),
      token_type: str({ enum: ['Bearer'] }),
      expires_in: int({ description: 'Seconds.', example: 86400 }),
      refresh_token: str({ description: 'Password and refresh_token grants only.' }),
      scope: str({ example: 'read write' }),
    },
    ['access_token', 'token_type', 'expires_in'],
  ),
  OAuthError: obj(
    {
      error: str({ enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'], description: 'RFC 6749 section 5.2.', example: 'invalid_grant' }),
      error_description: str(),
    },
    ['error'],
  ),
  SessionLogin: obj(
    {
      csrfToken: str({ description: 'Send it back in X-CSRF-Token on POST, PUT, PATCH and DELETE (also in the acme_csrf cookie and the X-CSRF-Token response header).' }),
      expiresIn: int({ description: 'Seconds.', example: 86400 }),
      user: obj({ id: int(), username: str() }, ['id', 'username']),
    },
    ['csrfToken', 'expiresIn', 'user'],
  ),
  CsrfToken: obj({ csrfToken: str() }, ['csrfToken']),
  OtpSent: obj({ message: str(), expiresIn: int({ example: 300 }) }, ['message', 'expiresIn']),
  OtpVerify: obj({ code: str({ pattern: '^[0-9]{6}$', example: '123456' }) }, ['code']),
  OtpResult: obj({ verified: bool() }, ['verified']),
  AccountSummary: obj({ username: str(), email: str({ format: 'email' }), displayName: str(), verified: bool() }, ['username', 'email', 'displayName', 'verified']),
  ExportStorage: obj({ bucket: str(), region: str(), connection: str({ description: 'The storage URL exports are written to.' }) }, ['bucket', 'region', 'connection']),
  SmsLoginRequest: obj({ phone: str({ maxLength: 32, example: '+1 415 555 0142' }) }, ['phone']),
  // No pattern or length: the code's length is told by the SMS, as in many APIs' descriptions.
  SmsLoginVerify: obj({ otp: str({ example: '0000' }) }, ['otp']),
  EmailVerify: obj({ email: str({ format: 'email', maxLength: 254, example: 'alice@acme.test' }), code: str({ pattern: '^[0-9]{6}$', example: '123456' }) }, ['email', 'code']),
  User: obj({
    id: ro(int({ example: 2 })),
    username: ro(str({ example: 'alice' })),
    email: str({ format: 'email', maxLength: 254, example: 'alice@acme.test' }),
    displayName: str({ minLength: 1, maxLength: 64, example: 'Alice Anderson' }),
    phone: str({ maxLength: 32, nullable: true, example: '+44 20 7946 0011' }),
    role: ro(str({ enum: ['customer', 'admin'] })),
    isAdmin: ro(bool()),
    verified: ro(bool()),
    balance: ro(num({ format: 'double', description: 'Wallet balance in GBP.' })),
    credits: ro(int()),
    avatarUrl: ro(str({ nullable: true })),
    apiKeyHint: ro(str({ description: 'Last four characters of the API key.', example: '…3f9a' })),
    createdAt: ro(dateTime()),
  }),
  AvatarRequest: obj({ imageUrl: str({ format: 'uri', maxLength: 2048, example: 'https://images.example.com/me.png' }) }, ['imageUrl']),
  Avatar: obj({ avatarUrl: str(), contentType: str(), size: int() }, ['avatarUrl', 'contentType', 'size']),
  Address: obj(
    { id: int({ example: 201 }), label: str(), line1: str(), city: str(), postcode: str(), country: str({ example: 'GB' }) },
    ['id', 'label', 'line1', 'city', 'postcode', 'country'],
  ),
  Product: obj(
    {
      id: int({ example: 12 }),
      name: str({ example: 'Granite Cookbook' }),
      description: str(),
      category: str({ enum: CATEGORIES }),
      price: num({ format: 'double', example: 24.99 }),
      stock: int(),
      votes: Votes,
    },
    ['id', 'name', 'description', 'category', 'price', 'stock', 'votes'],
  ),
  ProductSearchResult: obj(
    {
      query: str(),
      items: arr(obj({ id: int(), name: str(), category: str(), price: num(), score: num() })),
    },
    ['query', 'items'],
  ),
  Review: obj(
    {
      id: ro(int()),
      productId: ro(int()),
      rating: int({ minimum: 1, maximum: 5, example: 5 }),
      comment: str({ minLength: 1, maxLength: 1000, example: 'Arrived quickly, well packed.' }),
      author: ro(str()),
      createdAt: ro(dateTime()),
    },
    ['rating', 'comment'],
  ),
  VoteRequest: obj({ direction: str({ enum: ['up', 'down'], example: 'up' }) }, ['direction']),
  VoteResult: obj({ productId: int(), votes: Votes }, ['productId', 'votes']),
  OrderItem,
  Order: obj(
    {
      id: ro(int({ example: 1001 })),
      reference: ro(str({ description: '16-digit order reference.', example: '7311000000010010' })),
      ownerId: ro(int()),
      status: ro(str({ enum: ORDER_STATUSES })),
      items: arr(OrderItem, { minItems: 1, maxItems: 20 }),
      total: ro(num({ format: 'double' })),
      currency: ro(str({ enum: ['GBP'] })),
      shippingAddressId: int({ minimum: 1, nullable: true, example: 201 }),
      note: str({ maxLength: 500, example: 'Leave with the concierge' }),
      createdAt: ro(dateTime()),
      paidAt: ro(dateTime({ nullable: true })),
    },
    ['items'],
  ),
  InvoiceLookup: obj({ orderId: int({ minimum: 1, example: 1001 }) }, ['orderId']),
  Invoice: obj(
    {
      invoiceNumber: str({ example: 'INV-2026-1001' }),
      orderId: int(),
      billingName: str(),
      billingEmail: str({ format: 'email' }),
      billingAddress: obj({ line1: str(), city: str(), postcode: str(), country: str() }),
      vatId: str({ nullable: true }),
      total: num({ format: 'double' }),
      currency: str(),
      issuedAt: dateTime(),
    },
    ['invoiceNumber', 'orderId', 'billingName', 'total', 'currency', 'issuedAt'],
  ),
  CheckoutRequest: obj(
    {
      items: arr(OrderItem, { minItems: 1, maxItems: 20 }),
      paymentMethodId: str({ maxLength: 64, example: 'pm_1Nalice4Visa' }),
    },
    ['items', 'paymentMethodId'],
  ),
  CheckoutResult: obj(
    { orderId: int(), status: str({ enum: ['paid'] }), total: num({ format: 'double' }), currency: str(), receiptNumber: str() },
    ['orderId', 'status', 'total', 'currency', 'receiptNumber'],
  ),
  PaymentMethod: obj(
    { id: str(), brand: str({ enum: ['visa', 'mastercard', 'amex'] }), last4: str({ pattern: '^[0-9]{4}$' }), expMonth: int(), expYear: int(), holder: str() },
    ['id', 'brand', 'last4', 'expMonth', 'expYear', 'holder'],
  ),
  Transfer: obj(
    {
      id: ro(int()),
      from: ro(str()),
      to: str({ minLength: 3, maxLength: 32, description: 'Recipient username.', example: 'carol' }),
      amount: num({ minimum: 0.01, maximum: 1000, format: 'double', example: 25 }),
      memo: str({ maxLength: 140, example: 'Dinner' }),
      createdAt: ro(dateTime()),
    },
    ['to', 'amount'],
  ),
  Note: obj(
    {
      id: ro(str({ format: 'uuid' })),
      ownerId: ro(int()),
      title: str({ minLength: 1, maxLength: 120, example: 'Shopping list' }),
      body: str({ maxLength: 5000, example: 'Coffee beans, olive oil' }),
      tags: arr(str({ minLength: 1, maxLength: 30 }), { maxItems: 10, example: ['home'] }),
      priority: int({ minimum: 1, maximum: 5, example: 3 }),
      createdAt: ro(dateTime()),
      updatedAt: ro(dateTime()),
    },
    ['title'],
  ),
  Pin: obj({ id: ro(int()), ownerId: ro(int()), text: str({ minLength: 1, maxLength: 500, example: 'Bake sale on Friday' }) }, ['text']),
  AvatarUpload: obj({ file: str({ format: 'binary', maxLength: 102400, description: 'A PNG or JPEG image (image/png, image/jpeg), at most 100 KB.' }) }, ['file']),
  CardPreview: obj({ message: str({ minLength: 1, maxLength: 300, example: 'Happy birthday, ${name}!' }) }, ['message']),
  FeedbackPost: obj(
    {
      challengeId: str({ minLength: 1, maxLength: 64, example: '3f1c2a9e-0000-4000-8000-000000000000' }),
      answer: str({ minLength: 1, maxLength: 20, example: '13' }),
      message: str({ minLength: 1, maxLength: 1000, example: 'Fast delivery, thank you!' }),
    },
    ['challengeId', 'answer', 'message'],
  ),
  RatingPost: obj(
    {
      productId: int({ minimum: 1, example: 12 }),
      rating: int({ minimum: 1, maximum: 5, example: 4 }),
      comment: str({ minLength: 1, maxLength: 500, example: 'Sturdy and well made.' }),
      captchaId: int({ minimum: 1, example: 1 }),
      captcha: str({ minLength: 1, maxLength: 20, example: '10' }),
    },
    ['productId', 'rating', 'comment', 'captchaId', 'captcha'],
  ),
  PromoRedeem: obj({ code: str({ minLength: 1, maxLength: 40, example: 'WELCOME5' }) }, ['code']),
  ReportRun: obj({ sql: str({ minLength: 1, maxLength: 2000, example: 'SELECT name, price_cents FROM products ORDER BY price_cents DESC LIMIT 5' }) }, ['sql']),
  Document: obj({ id: str({ example: 'doc_7f3a9c21e4' }), title: str(), fileName: str(), createdAt: dateTime() }, ['id', 'title', 'fileName', 'createdAt']),
  DocumentContent: obj({ id: str(), title: str(), fileName: str(), content: str() }, ['id', 'title', 'fileName', 'content']),
  Activity: obj({ id: int(), type: str(), detail: str(), createdAt: dateTime() }, ['id', 'type', 'detail', 'createdAt']),
  Integration: obj(
    { id: str(), provider: str(), publicKey: str({ description: 'PEM SubjectPublicKeyInfo.' }), keyFingerprint: str({ description: 'SHA-256 of the DER public key.' }), createdAt: dateTime() },
    ['id', 'provider', 'publicKey', 'keyFingerprint', 'createdAt'],
  ),
  LinkPreviewRequest: obj({ url: str({ format: 'uri', maxLength: 2048, example: 'https://www.example.com/article' }) }, ['url']),
  LinkPreview: obj(
    {
      url: str(),
      finalUrl: str(),
      status: int(),
      contentType: str(),
      title: str({ nullable: true }),
      description: str({ nullable: true }),
      snippet: str({ description: 'The first 2,000 characters of the text.' }),
    },
    ['url', 'finalUrl', 'status', 'contentType', 'title', 'description', 'snippet'],
  ),
  DownloadFile: obj({ file: str({ example: 'catalog-2026.txt' }), title: str(), size: int() }, ['file', 'title', 'size']),
  Checksum: obj({ file: str(), sha256: str({ pattern: '^[0-9a-f]{64}$' }) }, ['file', 'sha256']),
  PaymentEvent: obj(
    {
      id: str({ example: 'evt_3MtwBwLkdIwHu7ix' }),
      type: str({ enum: ['payment.succeeded', 'payment.failed', 'refund.created'] }),
      orderId: int({ minimum: 1, example: 1006 }),
      amount: num({ format: 'double', example: 54.98 }),
    },
    ['id', 'type', 'orderId'],
  ),
  WebhookAck: obj({ received: bool() }, ['received']),
  AdminUser: obj(
    { id: int(), username: str(), email: str({ format: 'email' }), role: str({ enum: ['customer', 'admin'] }), isAdmin: bool(), verified: bool(), createdAt: dateTime() },
    ['id', 'username', 'email', 'role', 'isAdmin', 'verified', 'createdAt'],
  ),
  AdminUserUpdate: obj({ role: str({ enum: ['customer', 'admin'] }), verified: bool() }),
  AdminStats: obj({ users: int(), orders: int(), revenue: num({ format: 'double' }), products: int() }, ['users', 'orders', 'revenue', 'products']),
} satisfies Record<string, Schema>;

export type SchemaName = keyof typeof SCHEMAS;

export function page(items: SchemaName, sizeName: 'limit' | 'pageSize' | 'perPage'): Schema {
  const sizing: Record<string, Schema> =
    sizeName === 'limit' ? { limit: int(), offset: int() } : { page: int(), [sizeName]: int() };
  return obj({ items: arr({ $ref: items }), total: int(), ...sizing }, ['items', 'total', ...Object.keys(sizing)]);
}
