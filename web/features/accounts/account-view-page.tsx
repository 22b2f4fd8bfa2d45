import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useAccount } from './api.ts';

/** /accounts/{id}: an account lives under its asset, so this sends the browser there. */
export function AccountViewPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { data, error } = useAccount(id);
  useEffect(() => {
    if (data) navigate(`/assets/${data.assetId}/accounts/${data._id}/overview`, { replace: true });
  }, [data, navigate]);
  return error ? <ErrorPanel error={error} /> : <LoadingPanel label="Opening the account" />;
}
