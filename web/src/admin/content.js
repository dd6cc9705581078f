// An image for a content block (admin/edit-content): a multipart upload.
import { apiUpload } from '../common/client.js';

export function uploadContentImage(block, language, file) {
  const body = new FormData();
  body.append('image', file, file.name);
  return apiUpload(`admin/content/${block}/${language}/image`, body);
}
