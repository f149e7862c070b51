// The endpoint search box of the endpoint lists (by method or path, or a GraphQL operation's name).

import type { ReactElement } from 'react';
import { Icon } from './Icon';

export function EndpointSearch({ value, onChange, testId }: { value: string; onChange(value: string): void; testId: string }): ReactElement {
  return (
    <label className="search-input">
      <Icon name="search" size={18} />
      <span className="sr-only">Search endpoints by method, path or operation</span>
      <input type="search" placeholder="Search by method, path or operation" value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
    </label>
  );
}
