// Documentation and guides (sign-in required): /documentation and /guide/:guideId share this view;
// the guides and FAQ arrive with their issue.

import type { ReactElement } from 'react';
import { useParams } from 'react-router-dom';
import { ScreenPlaceholder } from '../../layouts/ScreenPlaceholder';

export default function DocumentationPage(): ReactElement {
  const { guideId } = useParams();
  return (
    <ScreenPlaceholder title="Documentation" testId="documentation-page">
      {guideId ? (
        <p data-testid="guide-id">
          Guide: <strong>{guideId}</strong>
        </p>
      ) : (
        <p>Getting started, advanced features, troubleshooting and FAQ.</p>
      )}
    </ScreenPlaceholder>
  );
}
